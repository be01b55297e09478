"""The layer classes, one file per family as in ``torch.nn.modules``."""

from .module import Module
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .linear import Bilinear, Identity, LazyLinear, Linear
from .activation import *  # noqa: F401,F403
from .activation import __all__ as _activation_all
from .loss import *  # noqa: F401,F403
from .loss import __all__ as _loss_all
from .conv import (Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d, LazyConv1d, LazyConv2d,
                   LazyConv3d, LazyConvTranspose1d, LazyConvTranspose2d, LazyConvTranspose3d)
from .pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AvgPool1d, AvgPool2d,
                      LPPool1d, LPPool2d, MaxPool1d, MaxPool2d, MaxUnpool1d, MaxUnpool2d, MaxPool3d, AvgPool3d,
                      AdaptiveAvgPool3d, AdaptiveMaxPool3d, LPPool3d, MaxUnpool3d, FractionalMaxPool2d,
                      FractionalMaxPool3d)
from .batchnorm import (BatchNorm1d, BatchNorm2d, BatchNorm3d, LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d,
                        SyncBatchNorm)
from .normalization import CrossMapLRN2d, GroupNorm, LayerNorm, LocalResponseNorm
from .dropout import AlphaDropout, Dropout, Dropout1d, Dropout2d, Dropout3d, FeatureAlphaDropout
from .sparse import Embedding, EmbeddingBag
from .flatten import Flatten, Unflatten
from .activation import MultiheadAttention
from .transformer import (Transformer, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder,
                          TransformerEncoderLayer)
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .normalization import RMSNorm
from .padding import *  # noqa: F401,F403
from .padding import __all__ as _padding_all
from .pixelshuffle import PixelShuffle, PixelUnshuffle
from .upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d
from .distance import CosineSimilarity, PairwiseDistance
from .instancenorm import (InstanceNorm1d, InstanceNorm2d, InstanceNorm3d, LazyInstanceNorm1d, LazyInstanceNorm2d,
                           LazyInstanceNorm3d)
from .fold import Fold, Unfold
from .channelshuffle import ChannelShuffle
from .lazy import LazyModuleMixin
from .adaptive import AdaptiveLogSoftmaxWithLoss

__all__ = [
    "Module",
    "Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict",
    "Identity", "Linear",
    "Conv1d", "Conv2d", "ConvTranspose1d", "ConvTranspose2d",
    "MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d",
    "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
    "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "GroupNorm",
    "Dropout", "Dropout1d", "Dropout2d", "Embedding", "Flatten", "Unflatten",
    "Transformer", "TransformerEncoder", "TransformerDecoder", "TransformerEncoderLayer", "TransformerDecoderLayer",
    "RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell",
    "RMSNorm", "PixelShuffle", "PixelUnshuffle", "Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d",
    "CosineSimilarity", "PairwiseDistance", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
    "Bilinear", "LazyLinear", "LPPool1d", "LPPool2d", "MaxUnpool1d", "MaxUnpool2d", "LocalResponseNorm", "CrossMapLRN2d",
    "Dropout3d", "AlphaDropout", "FeatureAlphaDropout", "EmbeddingBag", "Fold", "Unfold", "ChannelShuffle",
    "Conv3d", "ConvTranspose3d", "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d", "LazyConvTranspose2d",
    "LazyConvTranspose3d", "AdaptiveLogSoftmaxWithLoss", "MaxPool3d", "AvgPool3d", "AdaptiveAvgPool3d", "AdaptiveMaxPool3d", "LPPool3d", "MaxUnpool3d",
    "FractionalMaxPool2d", "FractionalMaxPool3d", "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d", "SyncBatchNorm",
    "LazyInstanceNorm1d", "LazyInstanceNorm2d", "LazyInstanceNorm3d",
] + list(_activation_all) + list(_loss_all) + list(_padding_all)
from . import utils  # noqa: F401,E402
