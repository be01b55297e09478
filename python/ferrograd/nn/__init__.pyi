"""``torch.nn``: Parameter and Buffer, Module and the layers, ``functional``, ``init`` and ``utils`` (explicit re-exports for type checkers)."""

from . import functional as functional
from . import init as init
from . import modules as modules
from . import parallel as parallel
from . import parameter as parameter
from . import utils as utils
from .modules.activation import CELU as CELU
from .modules.activation import ELU as ELU
from .modules.activation import GELU as GELU
from .modules.activation import GLU as GLU
from .modules.activation import Hardshrink as Hardshrink
from .modules.activation import Hardsigmoid as Hardsigmoid
from .modules.activation import Hardswish as Hardswish
from .modules.activation import Hardtanh as Hardtanh
from .modules.activation import LeakyReLU as LeakyReLU
from .modules.activation import LogSigmoid as LogSigmoid
from .modules.activation import LogSoftmax as LogSoftmax
from .modules.activation import Mish as Mish
from .modules.activation import MultiheadAttention as MultiheadAttention
from .modules.activation import PReLU as PReLU
from .modules.activation import ReLU as ReLU
from .modules.activation import ReLU6 as ReLU6
from .modules.activation import SELU as SELU
from .modules.activation import SiLU as SiLU
from .modules.activation import Sigmoid as Sigmoid
from .modules.activation import Softmax as Softmax
from .modules.activation import Softmin as Softmin
from .modules.activation import Softplus as Softplus
from .modules.activation import Softshrink as Softshrink
from .modules.activation import Softsign as Softsign
from .modules.activation import Tanh as Tanh
from .modules.activation import Tanhshrink as Tanhshrink
from .modules.activation import Threshold as Threshold
from .modules.batchnorm import BatchNorm1d as BatchNorm1d
from .modules.batchnorm import BatchNorm2d as BatchNorm2d
from .modules.batchnorm import BatchNorm3d as BatchNorm3d
from .modules.container import ModuleDict as ModuleDict
from .modules.container import ModuleList as ModuleList
from .modules.container import ParameterDict as ParameterDict
from .modules.container import ParameterList as ParameterList
from .modules.container import Sequential as Sequential
from .modules.conv import Conv1d as Conv1d
from .modules.conv import Conv2d as Conv2d
from .modules.conv import ConvTranspose1d as ConvTranspose1d
from .modules.conv import ConvTranspose2d as ConvTranspose2d
from .modules.dropout import Dropout as Dropout
from .modules.dropout import Dropout1d as Dropout1d
from .modules.dropout import Dropout2d as Dropout2d
from .modules.flatten import Flatten as Flatten
from .modules.flatten import Unflatten as Unflatten
from .modules.linear import Identity as Identity
from .modules.linear import Linear as Linear
from .modules.loss import BCELoss as BCELoss
from .modules.loss import BCEWithLogitsLoss as BCEWithLogitsLoss
from .modules.loss import CosineEmbeddingLoss as CosineEmbeddingLoss
from .modules.loss import CrossEntropyLoss as CrossEntropyLoss
from .modules.loss import GaussianNLLLoss as GaussianNLLLoss
from .modules.loss import HingeEmbeddingLoss as HingeEmbeddingLoss
from .modules.loss import HuberLoss as HuberLoss
from .modules.loss import KLDivLoss as KLDivLoss
from .modules.loss import L1Loss as L1Loss
from .modules.loss import MSELoss as MSELoss
from .modules.loss import MarginRankingLoss as MarginRankingLoss
from .modules.loss import NLLLoss as NLLLoss
from .modules.loss import PoissonNLLLoss as PoissonNLLLoss
from .modules.loss import SmoothL1Loss as SmoothL1Loss
from .modules.loss import SoftMarginLoss as SoftMarginLoss
from .modules.loss import TripletMarginLoss as TripletMarginLoss
from .modules.module import Module as Module
from .modules.normalization import GroupNorm as GroupNorm
from .modules.normalization import LayerNorm as LayerNorm
from .modules.pooling import AdaptiveAvgPool1d as AdaptiveAvgPool1d
from .modules.pooling import AdaptiveAvgPool2d as AdaptiveAvgPool2d
from .modules.pooling import AdaptiveMaxPool1d as AdaptiveMaxPool1d
from .modules.pooling import AdaptiveMaxPool2d as AdaptiveMaxPool2d
from .modules.pooling import AvgPool1d as AvgPool1d
from .modules.pooling import AvgPool2d as AvgPool2d
from .modules.pooling import MaxPool1d as MaxPool1d
from .modules.pooling import MaxPool2d as MaxPool2d
from .modules.rnn import GRU as GRU
from .modules.rnn import GRUCell as GRUCell
from .modules.rnn import LSTM as LSTM
from .modules.rnn import LSTMCell as LSTMCell
from .modules.rnn import RNN as RNN
from .modules.rnn import RNNBase as RNNBase
from .modules.rnn import RNNCell as RNNCell
from .modules.rnn import RNNCellBase as RNNCellBase
from .modules.activation import Softmax2d as Softmax2d
from .modules.normalization import RMSNorm as RMSNorm
from .modules.padding import ConstantPad1d as ConstantPad1d
from .modules.padding import ConstantPad2d as ConstantPad2d
from .modules.padding import ConstantPad3d as ConstantPad3d
from .modules.padding import ZeroPad1d as ZeroPad1d
from .modules.padding import ZeroPad2d as ZeroPad2d
from .modules.padding import ZeroPad3d as ZeroPad3d
from .modules.padding import ReflectionPad1d as ReflectionPad1d
from .modules.padding import ReflectionPad2d as ReflectionPad2d
from .modules.padding import ReflectionPad3d as ReflectionPad3d
from .modules.padding import ReplicationPad1d as ReplicationPad1d
from .modules.padding import ReplicationPad2d as ReplicationPad2d
from .modules.padding import ReplicationPad3d as ReplicationPad3d
from .modules.padding import CircularPad1d as CircularPad1d
from .modules.padding import CircularPad2d as CircularPad2d
from .modules.padding import CircularPad3d as CircularPad3d
from .modules.pixelshuffle import PixelShuffle as PixelShuffle
from .modules.pixelshuffle import PixelUnshuffle as PixelUnshuffle
from .modules.upsampling import Upsample as Upsample
from .modules.upsampling import UpsamplingNearest2d as UpsamplingNearest2d
from .modules.upsampling import UpsamplingBilinear2d as UpsamplingBilinear2d
from .modules.distance import CosineSimilarity as CosineSimilarity
from .modules.distance import PairwiseDistance as PairwiseDistance
from .modules.instancenorm import InstanceNorm1d as InstanceNorm1d
from .modules.instancenorm import InstanceNorm2d as InstanceNorm2d
from .modules.instancenorm import InstanceNorm3d as InstanceNorm3d
from .modules.sparse import Embedding as Embedding
from .modules.transformer import Transformer as Transformer
from .modules.transformer import TransformerDecoder as TransformerDecoder
from .modules.transformer import TransformerDecoderLayer as TransformerDecoderLayer
from .modules.transformer import TransformerEncoder as TransformerEncoder
from .modules.transformer import TransformerEncoderLayer as TransformerEncoderLayer
from .parameter import Buffer as Buffer
from .parameter import Parameter as Parameter
from .parameter import _rebuild_parameter as _rebuild_parameter
from .modules.linear import Bilinear as Bilinear
from .modules.linear import LazyLinear as LazyLinear
from .modules.pooling import LPPool1d as LPPool1d
from .modules.pooling import LPPool2d as LPPool2d
from .modules.pooling import MaxUnpool1d as MaxUnpool1d
from .modules.pooling import MaxUnpool2d as MaxUnpool2d
from .modules.normalization import LocalResponseNorm as LocalResponseNorm
from .modules.normalization import CrossMapLRN2d as CrossMapLRN2d
from .modules.dropout import Dropout3d as Dropout3d
from .modules.dropout import AlphaDropout as AlphaDropout
from .modules.dropout import FeatureAlphaDropout as FeatureAlphaDropout
from .modules.sparse import EmbeddingBag as EmbeddingBag
from .modules.fold import Fold as Fold
from .modules.fold import Unfold as Unfold
from .modules.channelshuffle import ChannelShuffle as ChannelShuffle
from .modules.activation import RReLU as RReLU
from .modules.loss import MultiMarginLoss as MultiMarginLoss
from .modules.loss import MultiLabelMarginLoss as MultiLabelMarginLoss
from .modules.loss import MultiLabelSoftMarginLoss as MultiLabelSoftMarginLoss
from .parameter import UninitializedParameter as UninitializedParameter

from .modules.conv import Conv3d as Conv3d
from .modules.conv import ConvTranspose3d as ConvTranspose3d
from .modules.conv import LazyConv1d as LazyConv1d
from .modules.conv import LazyConv2d as LazyConv2d
from .modules.conv import LazyConv3d as LazyConv3d
from .modules.conv import LazyConvTranspose1d as LazyConvTranspose1d
from .modules.conv import LazyConvTranspose2d as LazyConvTranspose2d
from .modules.conv import LazyConvTranspose3d as LazyConvTranspose3d
from .modules.pooling import MaxPool3d as MaxPool3d
from .modules.pooling import AvgPool3d as AvgPool3d
from .modules.pooling import AdaptiveAvgPool3d as AdaptiveAvgPool3d
from .modules.pooling import AdaptiveMaxPool3d as AdaptiveMaxPool3d
from .modules.pooling import LPPool3d as LPPool3d
from .modules.pooling import MaxUnpool3d as MaxUnpool3d
from .modules.pooling import FractionalMaxPool2d as FractionalMaxPool2d
from .modules.pooling import FractionalMaxPool3d as FractionalMaxPool3d
from .modules.loss import NLLLoss2d as NLLLoss2d
from .modules.loss import CTCLoss as CTCLoss
from .modules.loss import TripletMarginWithDistanceLoss as TripletMarginWithDistanceLoss
from .modules.batchnorm import LazyBatchNorm1d as LazyBatchNorm1d
from .modules.batchnorm import LazyBatchNorm2d as LazyBatchNorm2d
from .modules.batchnorm import LazyBatchNorm3d as LazyBatchNorm3d
from .modules.batchnorm import SyncBatchNorm as SyncBatchNorm
from .modules.instancenorm import LazyInstanceNorm1d as LazyInstanceNorm1d
from .modules.instancenorm import LazyInstanceNorm2d as LazyInstanceNorm2d
from .modules.instancenorm import LazyInstanceNorm3d as LazyInstanceNorm3d
from .modules.adaptive import AdaptiveLogSoftmaxWithLoss as AdaptiveLogSoftmaxWithLoss
from .parameter import UninitializedBuffer as UninitializedBuffer
from .parallel import DataParallel as DataParallel
from . import attention as attention

__all__ = [
    "Conv3d", "ConvTranspose3d", "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyConvTranspose3d", "MaxPool3d", "AvgPool3d", "AdaptiveAvgPool3d", "AdaptiveMaxPool3d", "LPPool3d", "MaxUnpool3d", "FractionalMaxPool2d", "FractionalMaxPool3d", "NLLLoss2d", "CTCLoss", "TripletMarginWithDistanceLoss", "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d", "SyncBatchNorm", "LazyInstanceNorm1d", "LazyInstanceNorm2d", "LazyInstanceNorm3d", "AdaptiveLogSoftmaxWithLoss", "UninitializedBuffer", "DataParallel", "attention",
    "Parameter",
    "Buffer",
    "functional",
    "init",
    "utils",
    "modules",
    "parameter",
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
    "UninitializedParameter",
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
