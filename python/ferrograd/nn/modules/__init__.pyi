"""The layer classes, one file per family as in ``torch.nn.modules`` (explicit re-exports for type checkers)."""

from . import activation as activation
from . import batchnorm as batchnorm
from . import container as container
from . import conv as conv
from . import dropout as dropout
from . import flatten as flatten
from . import linear as linear
from . import loss as loss
from . import module as module
from . import normalization as normalization
from . import pooling as pooling
from . import rnn as rnn
from . import sparse as sparse
from . import transformer as transformer
from . import padding as padding
from . import pixelshuffle as pixelshuffle
from . import upsampling as upsampling
from . import distance as distance
from . import instancenorm as instancenorm
from .activation import Softmax2d as Softmax2d
from .normalization import RMSNorm as RMSNorm
from .padding import ConstantPad1d as ConstantPad1d
from .padding import ConstantPad2d as ConstantPad2d
from .padding import ConstantPad3d as ConstantPad3d
from .padding import ZeroPad1d as ZeroPad1d
from .padding import ZeroPad2d as ZeroPad2d
from .padding import ZeroPad3d as ZeroPad3d
from .padding import ReflectionPad1d as ReflectionPad1d
from .padding import ReflectionPad2d as ReflectionPad2d
from .padding import ReflectionPad3d as ReflectionPad3d
from .padding import ReplicationPad1d as ReplicationPad1d
from .padding import ReplicationPad2d as ReplicationPad2d
from .padding import ReplicationPad3d as ReplicationPad3d
from .padding import CircularPad1d as CircularPad1d
from .padding import CircularPad2d as CircularPad2d
from .padding import CircularPad3d as CircularPad3d
from .pixelshuffle import PixelShuffle as PixelShuffle
from .pixelshuffle import PixelUnshuffle as PixelUnshuffle
from .upsampling import Upsample as Upsample
from .upsampling import UpsamplingNearest2d as UpsamplingNearest2d
from .upsampling import UpsamplingBilinear2d as UpsamplingBilinear2d
from .distance import CosineSimilarity as CosineSimilarity
from .distance import PairwiseDistance as PairwiseDistance
from .instancenorm import InstanceNorm1d as InstanceNorm1d
from .instancenorm import InstanceNorm2d as InstanceNorm2d
from .instancenorm import InstanceNorm3d as InstanceNorm3d
from .activation import CELU as CELU
from .activation import ELU as ELU
from .activation import GELU as GELU
from .activation import GLU as GLU
from .activation import Hardshrink as Hardshrink
from .activation import Hardsigmoid as Hardsigmoid
from .activation import Hardswish as Hardswish
from .activation import Hardtanh as Hardtanh
from .activation import LeakyReLU as LeakyReLU
from .activation import LogSigmoid as LogSigmoid
from .activation import LogSoftmax as LogSoftmax
from .activation import Mish as Mish
from .activation import MultiheadAttention as MultiheadAttention
from .activation import PReLU as PReLU
from .activation import ReLU as ReLU
from .activation import ReLU6 as ReLU6
from .activation import SELU as SELU
from .activation import SiLU as SiLU
from .activation import Sigmoid as Sigmoid
from .activation import Softmax as Softmax
from .activation import Softmin as Softmin
from .activation import Softplus as Softplus
from .activation import Softshrink as Softshrink
from .activation import Softsign as Softsign
from .activation import Tanh as Tanh
from .activation import Tanhshrink as Tanhshrink
from .activation import Threshold as Threshold
from .batchnorm import BatchNorm1d as BatchNorm1d
from .batchnorm import BatchNorm2d as BatchNorm2d
from .batchnorm import BatchNorm3d as BatchNorm3d
from .container import ModuleDict as ModuleDict
from .container import ModuleList as ModuleList
from .container import ParameterDict as ParameterDict
from .container import ParameterList as ParameterList
from .container import Sequential as Sequential
from .conv import Conv1d as Conv1d
from .conv import Conv2d as Conv2d
from .conv import ConvTranspose1d as ConvTranspose1d
from .conv import ConvTranspose2d as ConvTranspose2d
from .dropout import Dropout as Dropout
from .dropout import Dropout1d as Dropout1d
from .dropout import Dropout2d as Dropout2d
from .flatten import Flatten as Flatten
from .flatten import Unflatten as Unflatten
from .linear import Identity as Identity
from .linear import Linear as Linear
from .loss import BCELoss as BCELoss
from .loss import BCEWithLogitsLoss as BCEWithLogitsLoss
from .loss import CosineEmbeddingLoss as CosineEmbeddingLoss
from .loss import CrossEntropyLoss as CrossEntropyLoss
from .loss import GaussianNLLLoss as GaussianNLLLoss
from .loss import HingeEmbeddingLoss as HingeEmbeddingLoss
from .loss import HuberLoss as HuberLoss
from .loss import KLDivLoss as KLDivLoss
from .loss import L1Loss as L1Loss
from .loss import MSELoss as MSELoss
from .loss import MarginRankingLoss as MarginRankingLoss
from .loss import NLLLoss as NLLLoss
from .loss import PoissonNLLLoss as PoissonNLLLoss
from .loss import SmoothL1Loss as SmoothL1Loss
from .loss import SoftMarginLoss as SoftMarginLoss
from .loss import TripletMarginLoss as TripletMarginLoss
from .module import Module as Module
from .normalization import GroupNorm as GroupNorm
from .normalization import LayerNorm as LayerNorm
from .pooling import AdaptiveAvgPool1d as AdaptiveAvgPool1d
from .pooling import AdaptiveAvgPool2d as AdaptiveAvgPool2d
from .pooling import AdaptiveMaxPool1d as AdaptiveMaxPool1d
from .pooling import AdaptiveMaxPool2d as AdaptiveMaxPool2d
from .pooling import AvgPool1d as AvgPool1d
from .pooling import AvgPool2d as AvgPool2d
from .pooling import MaxPool1d as MaxPool1d
from .pooling import MaxPool2d as MaxPool2d
from .rnn import GRU as GRU
from .rnn import GRUCell as GRUCell
from .rnn import LSTM as LSTM
from .rnn import LSTMCell as LSTMCell
from .rnn import RNN as RNN
from .rnn import RNNBase as RNNBase
from .rnn import RNNCell as RNNCell
from .rnn import RNNCellBase as RNNCellBase
from .sparse import Embedding as Embedding
from .transformer import Transformer as Transformer
from .transformer import TransformerDecoder as TransformerDecoder
from .transformer import TransformerDecoderLayer as TransformerDecoderLayer
from .transformer import TransformerEncoder as TransformerEncoder
from .transformer import TransformerEncoderLayer as TransformerEncoderLayer
from .linear import Bilinear as Bilinear
from .linear import LazyLinear as LazyLinear
from .pooling import LPPool1d as LPPool1d
from .pooling import LPPool2d as LPPool2d
from .pooling import MaxUnpool1d as MaxUnpool1d
from .pooling import MaxUnpool2d as MaxUnpool2d
from .normalization import LocalResponseNorm as LocalResponseNorm
from .normalization import CrossMapLRN2d as CrossMapLRN2d
from .dropout import Dropout3d as Dropout3d
from .dropout import AlphaDropout as AlphaDropout
from .dropout import FeatureAlphaDropout as FeatureAlphaDropout
from .sparse import EmbeddingBag as EmbeddingBag
from .fold import Fold as Fold
from .fold import Unfold as Unfold
from .channelshuffle import ChannelShuffle as ChannelShuffle
from .activation import RReLU as RReLU
from .loss import MultiMarginLoss as MultiMarginLoss
from .loss import MultiLabelMarginLoss as MultiLabelMarginLoss
from .loss import MultiLabelSoftMarginLoss as MultiLabelSoftMarginLoss
from .lazy import LazyModuleMixin as LazyModuleMixin

from . import adaptive as adaptive
from .conv import Conv3d as Conv3d
from .conv import ConvTranspose3d as ConvTranspose3d
from .conv import LazyConv1d as LazyConv1d
from .conv import LazyConv2d as LazyConv2d
from .conv import LazyConv3d as LazyConv3d
from .conv import LazyConvTranspose1d as LazyConvTranspose1d
from .conv import LazyConvTranspose2d as LazyConvTranspose2d
from .conv import LazyConvTranspose3d as LazyConvTranspose3d
from .pooling import MaxPool3d as MaxPool3d
from .pooling import AvgPool3d as AvgPool3d
from .pooling import AdaptiveAvgPool3d as AdaptiveAvgPool3d
from .pooling import AdaptiveMaxPool3d as AdaptiveMaxPool3d
from .pooling import LPPool3d as LPPool3d
from .pooling import MaxUnpool3d as MaxUnpool3d
from .pooling import FractionalMaxPool2d as FractionalMaxPool2d
from .pooling import FractionalMaxPool3d as FractionalMaxPool3d
from .loss import NLLLoss2d as NLLLoss2d
from .loss import CTCLoss as CTCLoss
from .loss import TripletMarginWithDistanceLoss as TripletMarginWithDistanceLoss
from .batchnorm import LazyBatchNorm1d as LazyBatchNorm1d
from .batchnorm import LazyBatchNorm2d as LazyBatchNorm2d
from .batchnorm import LazyBatchNorm3d as LazyBatchNorm3d
from .batchnorm import SyncBatchNorm as SyncBatchNorm
from .instancenorm import LazyInstanceNorm1d as LazyInstanceNorm1d
from .instancenorm import LazyInstanceNorm2d as LazyInstanceNorm2d
from .instancenorm import LazyInstanceNorm3d as LazyInstanceNorm3d
from .adaptive import AdaptiveLogSoftmaxWithLoss as AdaptiveLogSoftmaxWithLoss

__all__ = [
    "Conv3d", "ConvTranspose3d", "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyConvTranspose3d", "MaxPool3d", "AvgPool3d", "AdaptiveAvgPool3d", "AdaptiveMaxPool3d", "LPPool3d", "MaxUnpool3d", "FractionalMaxPool2d", "FractionalMaxPool3d", "NLLLoss2d", "CTCLoss", "TripletMarginWithDistanceLoss", "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d", "SyncBatchNorm", "LazyInstanceNorm1d", "LazyInstanceNorm2d", "LazyInstanceNorm3d", "AdaptiveLogSoftmaxWithLoss",
    "Softmax2d",
    "RMSNorm",
    "ConstantPad1d",
    "ConstantPad2d",
    "ConstantPad3d",
    "ZeroPad1d",
    "ZeroPad2d",
    "ZeroPad3d",
    "ReflectionPad1d",
    "ReflectionPad2d",
    "ReflectionPad3d",
    "ReplicationPad1d",
    "ReplicationPad2d",
    "ReplicationPad3d",
    "CircularPad1d",
    "CircularPad2d",
    "CircularPad3d",
    "PixelShuffle",
    "PixelUnshuffle",
    "Upsample",
    "UpsamplingNearest2d",
    "UpsamplingBilinear2d",
    "CosineSimilarity",
    "PairwiseDistance",
    "InstanceNorm1d",
    "InstanceNorm2d",
    "InstanceNorm3d",

    "Module",
    "Sequential",
    "ModuleList",
    "ModuleDict",
    "ParameterList",
    "ParameterDict",
    "Identity",
    "Linear",
    "Conv1d",
    "Conv2d",
    "ConvTranspose1d",
    "ConvTranspose2d",
    "MaxPool1d",
    "MaxPool2d",
    "AvgPool1d",
    "AvgPool2d",
    "AdaptiveAvgPool1d",
    "AdaptiveAvgPool2d",
    "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d",
    "BatchNorm1d",
    "BatchNorm2d",
    "BatchNorm3d",
    "LayerNorm",
    "GroupNorm",
    "Dropout",
    "Dropout1d",
    "Dropout2d",
    "Embedding",
    "Flatten",
    "Unflatten",
    "Transformer",
    "TransformerEncoder",
    "TransformerDecoder",
    "TransformerEncoderLayer",
    "TransformerDecoderLayer",
    "RNNBase",
    "RNN",
    "LSTM",
    "GRU",
    "RNNCellBase",
    "RNNCell",
    "LSTMCell",
    "GRUCell",
    "ReLU",
    "Tanh",
    "Sigmoid",
    "LeakyReLU",
    "ELU",
    "CELU",
    "SELU",
    "SiLU",
    "Mish",
    "GELU",
    "Softplus",
    "Hardtanh",
    "ReLU6",
    "Hardsigmoid",
    "Hardswish",
    "LogSigmoid",
    "Softsign",
    "Tanhshrink",
    "Softshrink",
    "Hardshrink",
    "Threshold",
    "PReLU",
    "GLU",
    "Softmax",
    "LogSoftmax",
    "Softmin",
    "MultiheadAttention",
    "MSELoss",
    "CrossEntropyLoss",
    "L1Loss",
    "NLLLoss",
    "BCELoss",
    "BCEWithLogitsLoss",
    "SmoothL1Loss",
    "HuberLoss",
    "KLDivLoss",
    "CosineEmbeddingLoss",
    "MarginRankingLoss",
    "SoftMarginLoss",
    "HingeEmbeddingLoss",
    "TripletMarginLoss",
    "PoissonNLLLoss",
    "GaussianNLLLoss",
    "Bilinear",
    "LazyLinear",
    "LPPool1d",
    "LPPool2d",
    "MaxUnpool1d",
    "MaxUnpool2d",
    "LocalResponseNorm",
    "CrossMapLRN2d",
    "Dropout3d",
    "AlphaDropout",
    "FeatureAlphaDropout",
    "EmbeddingBag",
    "Fold",
    "Unfold",
    "ChannelShuffle",
    "RReLU",
    "MultiMarginLoss",
    "MultiLabelMarginLoss",
    "MultiLabelSoftMarginLoss",
]
