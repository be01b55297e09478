"""Type stubs for ``ferrograd.nn.functional`` (``torch.nn.functional``): the functional
forms of the layers, activations and losses (docstrings: see the module itself)."""

import builtins
from typing import Any, Literal, Optional, Sequence, Union, overload

from .._C import Tensor, dtype

_int = builtins.int
_dtype = dtype
_size_any = Union[_int, Sequence[_int]]

def adaptive_avg_pool1d(input: Tensor, output_size: Union[_int, None, Sequence[Optional[_int]]]) -> Tensor:
    """Applies a 1D adaptive average pooling over an input signal composed of several input planes (output length ``output_size``)."""
def adaptive_avg_pool2d(input: Tensor, output_size: Union[_int, None, Sequence[Optional[_int]]]) -> Tensor:
    """Applies a 2D adaptive average pooling over an input signal composed of several input planes (output size ``output_size``)."""
@overload
def adaptive_max_pool1d(input: Tensor, output_size: Union[_int, None, Sequence[Optional[_int]]], return_indices: Literal[False] = False) -> Tensor:
    """Applies a 1D adaptive max pooling over an input signal composed of several input planes; with ``return_indices=True`` also the argmax indices."""
@overload
def adaptive_max_pool1d(input: Tensor, output_size: Union[_int, None, Sequence[Optional[_int]]], *, return_indices: Literal[True]) -> tuple[Tensor, Tensor]: ...
@overload
def adaptive_max_pool2d(input: Tensor, output_size: Union[_int, None, Sequence[Optional[_int]]], return_indices: Literal[False] = False) -> Tensor:
    """Applies a 2D adaptive max pooling over an input signal composed of several input planes; with ``return_indices=True`` also the argmax indices."""
@overload
def adaptive_max_pool2d(input: Tensor, output_size: Union[_int, None, Sequence[Optional[_int]]], *, return_indices: Literal[True]) -> tuple[Tensor, Tensor]: ...
def adaptive_max_pool2d_with_indices(input: Tensor, output_size: Union[_int, None, Sequence[Optional[_int]]], return_indices: bool = False) -> tuple[Tensor, Tensor]:
    """2D adaptive max pooling that returns ``(output, indices)``."""
def avg_pool1d(input: Tensor, kernel_size: _size_any, stride: Optional[_size_any] = None, padding: _size_any = 0, ceil_mode: bool = False, count_include_pad: bool = True) -> Tensor:
    """Applies a 1D average pooling over an input signal composed of several input planes."""
def avg_pool2d(input: Tensor, kernel_size: _size_any, stride: Optional[_size_any] = None, padding: _size_any = 0, ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: Optional[_int] = None) -> Tensor:
    """Applies 2D average-pooling operation in ``kH x kW`` regions by step size ``sH x sW`` steps."""
def batch_norm(input: Tensor, running_mean: Optional[Tensor], running_var: Optional[Tensor], weight: Optional[Tensor] = None, bias: Optional[Tensor] = None, training: bool = False, momentum: Optional[float] = 0.1, eps: float = 1e-05) -> Tensor:
    """Apply Batch Normalization for each channel across a batch of data (running statistics updated in training mode)."""
def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Optional[Tensor] = None) -> Tensor:
    """Applies a bilinear transformation to the incoming data: ``y = x1^T A x2 + b``."""
def binary_cross_entropy(input: Tensor, target: Tensor, weight: Optional[Tensor] = None, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    """Measure Binary Cross Entropy between the target and input probabilities."""
def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Optional[Tensor] = None, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean", pos_weight: Optional[Tensor] = None) -> Tensor:
    """Calculate Binary Cross Entropy between target and input logits (a sigmoid layer and BCE in one, numerically stable)."""
def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """Applies element-wise ``CELU(x) = max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""
def conv1d(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride: Optional[_size_any] = 1, padding: Union[_size_any, str] = 0, dilation: _size_any = 1, groups: _int = 1) -> Tensor:
    """Applies a 1D convolution over an input signal composed of several input planes."""
def conv2d(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride: Optional[_size_any] = 1, padding: Union[_size_any, str] = 0, dilation: _size_any = 1, groups: _int = 1) -> Tensor:
    """Applies a 2D convolution over an input image composed of several input planes (``padding`` may be ``'same'`` or ``'valid'``)."""
def conv_transpose1d(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride: Optional[_size_any] = 1, padding: Union[_size_any, str] = 0, output_padding: _size_any = 0, groups: _int = 1, dilation: _size_any = 1) -> Tensor:
    """Applies a 1D transposed convolution operator over an input signal composed of several input planes."""
def conv_transpose2d(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride: Optional[_size_any] = 1, padding: Union[_size_any, str] = 0, output_padding: _size_any = 0, groups: _int = 1, dilation: _size_any = 1) -> Tensor:
    """Applies a 2D transposed convolution operator over an input image composed of several input planes."""
def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    """The cosine embedding loss: ``1 - cos(x1, x2)`` for ``y = 1``, ``max(0, cos(x1, x2) - margin)`` for ``y = -1``."""
def cross_entropy(input: Tensor, target: Tensor, weight: Optional[Tensor] = None, size_average: Optional[bool] = None, ignore_index: _int = -100, reduce: Optional[bool] = None, reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """Compute the cross entropy loss between input logits and target (class indices or class probabilities), with optional class ``weight``, ``ignore_index`` and ``label_smoothing``."""
def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """During training, randomly zeroes some elements of the input tensor with probability ``p`` and scales the rest by ``1 / (1 - p)`` (PyTorch's CPU random stream)."""
def dropout1d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Randomly zero out entire channels (a channel is a 1D feature map) with probability ``p``."""
def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Randomly zero out entire channels (a channel is a 2D feature map) with probability ``p``."""
def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """Apply the Exponential Linear Unit (ELU) function element-wise."""
def embedding(input: Tensor, weight: Tensor, padding_idx: Optional[_int] = None, max_norm: Optional[float] = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """Generate a simple lookup table that looks up embeddings in a fixed dictionary (``weight``) by index."""
def flatten(input: Tensor, start_dim: _int = 0, end_dim: _int = -1) -> Tensor:
    """Flattens ``input`` by reshaping it into a one-dimensional tensor (dimensions ``start_dim`` to ``end_dim``)."""
def fold(input: Tensor, output_size: _size_any, kernel_size: _size_any, dilation: _size_any = 1, padding: _size_any = 0, stride: Optional[_size_any] = 1) -> Tensor:
    """Combine an array of sliding local blocks into a large containing tensor (the adjoint of ``unfold``; 4-D output)."""
def gaussian_nll_loss(input: Tensor, target: Tensor, var: Tensor, full: bool = False, eps: float = 1e-06, reduction: str = "mean") -> Tensor:
    """Gaussian negative log likelihood loss, with the predicted variance ``var``."""
def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """Gaussian Error Linear Units: ``x * Phi(x)``, or its tanh approximation with ``approximate='tanh'``."""
def glu(input: Tensor, dim: Optional[_int] = -1) -> Tensor:
    """The gated linear unit: ``a * sigmoid(b)`` where ``input`` is split in half along ``dim`` into ``a`` and ``b``."""
def group_norm(input: Tensor, num_groups: _int, weight: Optional[Tensor] = None, bias: Optional[Tensor] = None, eps: float = 1e-05) -> Tensor:
    """Apply Group Normalization over the channels, in ``num_groups`` groups."""
def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """Apply the hard shrinkage function element-wise: ``x`` if ``|x| > lambd`` else 0."""
def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    """Apply the Hardsigmoid function element-wise: ``relu6(x + 3) / 6``."""
def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """Apply hardswish function, element-wise: ``x * relu6(x + 3) / 6``."""
def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> Tensor:
    """Apply the HardTanh function element-wise: clamp to ``[min_val, max_val]``."""
def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    """The hinge embedding loss (``x`` for ``y = 1``, ``max(0, margin - x)`` for ``y = -1``)."""
def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0, weight: Optional[Tensor] = None) -> Tensor:
    """Compute the Huber loss: squared below ``delta``, linear above (optionally weighted)."""
def interpolate(input: Tensor, size: Union[_int, Sequence[_int], None] = None, scale_factor: Union[float, Sequence[float], None] = None, mode: str = "nearest", align_corners: Optional[bool] = None, recompute_scale_factor: Optional[bool] = None, antialias: bool = False) -> Tensor:
    """Down/up samples the input to either the given ``size`` or the given ``scale_factor`` (modes ``'nearest'``, ``'linear'``, ``'bilinear'``, ``'bicubic'``, ``'area'``, ``'nearest-exact'``)."""
def kl_div(input: Tensor, target: Tensor, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean", log_target: bool = False) -> Tensor:
    """Compute the KL Divergence loss (``input`` as log-probabilities; ``target`` as probabilities, or log-probabilities with ``log_target=True``)."""
def l1_loss(input: Tensor, target: Tensor, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean", weight: Optional[Tensor] = None) -> Tensor:
    """Compute the L1 loss: the mean (or sum) absolute element-wise difference."""
def layer_norm(input: Tensor, normalized_shape: Union[_int, Sequence[_int]], weight: Optional[Tensor] = None, bias: Optional[Tensor] = None, eps: float = 1e-05) -> Tensor:
    """Apply Layer Normalization over the last ``len(normalized_shape)`` dimensions."""
def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """Applies element-wise ``LeakyReLU(x) = max(0, x) + negative_slope * min(0, x)``."""
def linear(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None) -> Tensor:
    """Applies a linear transformation to the incoming data: ``y = x A^T + b``."""
def log_softmax(input: Tensor, dim: Optional[_int] = None, _stacklevel: _int = 3, dtype: Optional[_dtype] = None) -> Tensor:
    """Apply a softmax followed by a logarithm, computed stably, along ``dim``."""
def logsigmoid(input: Tensor) -> Tensor:
    """Applies element-wise ``LogSigmoid(x) = log(1 / (1 + exp(-x)))``."""
def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    """The margin ranking loss: ``max(0, -y * (x1 - x2) + margin)``."""
@overload
def max_pool1d(input: Tensor, kernel_size: _size_any, stride: Optional[_size_any] = None, padding: _size_any = 0, dilation: _size_any = 1, ceil_mode: bool = False, return_indices: Literal[False] = False) -> Tensor:
    """Applies a 1D max pooling over an input signal composed of several input planes; with ``return_indices=True`` also the argmax indices."""
@overload
def max_pool1d(input: Tensor, kernel_size: _size_any, stride: Optional[_size_any] = None, padding: _size_any = 0, dilation: _size_any = 1, ceil_mode: bool = False, *, return_indices: Literal[True]) -> tuple[Tensor, Tensor]: ...
@overload
def max_pool2d(input: Tensor, kernel_size: _size_any, stride: Optional[_size_any] = None, padding: _size_any = 0, dilation: _size_any = 1, ceil_mode: bool = False, return_indices: Literal[False] = False) -> Tensor:
    """Applies a 2D max pooling over an input signal composed of several input planes; with ``return_indices=True`` also the argmax indices."""
@overload
def max_pool2d(input: Tensor, kernel_size: _size_any, stride: Optional[_size_any] = None, padding: _size_any = 0, dilation: _size_any = 1, ceil_mode: bool = False, *, return_indices: Literal[True]) -> tuple[Tensor, Tensor]: ...
def max_pool2d_with_indices(input: Tensor, kernel_size: _size_any, stride: Optional[_size_any] = None, padding: _size_any = 0, dilation: _size_any = 1, ceil_mode: bool = False, return_indices: bool = True) -> tuple[Tensor, Tensor]:
    """2D max pooling that returns ``(output, indices)``."""
def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """Apply the Mish function, element-wise: ``x * tanh(softplus(x))``."""
def mse_loss(input: Tensor, target: Tensor, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean", weight: Optional[Tensor] = None) -> Tensor:
    """Compute the element-wise mean squared error (optionally weighted)."""
def multi_head_attention_forward(query: Tensor, key: Tensor, value: Tensor, embed_dim_to_check: _int, num_heads: _int, in_proj_weight: Optional[Tensor], in_proj_bias: Optional[Tensor], bias_k: Optional[Tensor], bias_v: Optional[Tensor], add_zero_attn: bool, dropout_p: float, out_proj_weight: Tensor, out_proj_bias: Optional[Tensor], training: bool = True, key_padding_mask: Optional[Tensor] = None, need_weights: bool = True, attn_mask: Optional[Tensor] = None, use_separate_proj_weight: bool = False, q_proj_weight: Optional[Tensor] = None, k_proj_weight: Optional[Tensor] = None, v_proj_weight: Optional[Tensor] = None, static_k: Optional[Tensor] = None, static_v: Optional[Tensor] = None, average_attn_weights: bool = True, is_causal: bool = False) -> tuple[Tensor, Optional[Tensor]]:
    """The forward pass of ``ferrograd.nn.MultiheadAttention`` as a function (PyTorch's argument list); returns ``(attn_output, attn_weights)``."""
def nll_loss(input: Tensor, target: Tensor, weight: Optional[Tensor] = None, size_average: Optional[bool] = None, ignore_index: _int = -100, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    """Compute the negative log likelihood loss of log-probabilities ``input`` for class indices ``target``."""
def normalize(input: Tensor, p: float = 2.0, dim: Optional[_int] = 1, eps: float = 1e-12, out: Optional[Tensor] = None) -> Tensor:
    """Perform ``L_p`` normalization of inputs over the specified dimension: ``v / max(||v||_p, eps)``."""
def one_hot(tensor: Tensor, num_classes: _int = -1) -> Tensor:
    """Takes a LongTensor of class indices and returns a tensor of zeros with a 1 at each index (``num_classes=-1``: one more than the largest index)."""
def pad(input: Tensor, pad: Sequence[_int], mode: str = "constant", value: Optional[float] = None) -> Tensor:
    """Pads tensor: ``pad`` lists (left, right) amounts from the last dimension backwards; modes ``'constant'``, ``'reflect'``, ``'replicate'``, ``'circular'``."""
def pixel_shuffle(input: Tensor, upscale_factor: _int) -> Tensor:
    """``(*, C*r*r, H, W) -> (*, C, H*r, W*r)``."""
def pixel_unshuffle(input: Tensor, downscale_factor: _int) -> Tensor:
    """``(*, C, H*r, W*r) -> (*, C*r*r, H, W)``."""
def instance_norm(input: Tensor, running_mean: Optional[Tensor] = None, running_var: Optional[Tensor] = None, weight: Optional[Tensor] = None, bias: Optional[Tensor] = None, use_input_stats: bool = True, momentum: float = 0.1, eps: float = 1e-05) -> Tensor:
    """Each sample's channels normalised over their spatial positions."""
def cosine_similarity(x1: Tensor, x2: Tensor, dim: _int = 1, eps: float = 1e-08) -> Tensor:
    """The cosine of the angle between ``x1`` and ``x2`` along ``dim``."""
def rms_norm(input: Tensor, normalized_shape: Union[_int, Sequence[_int]], weight: Optional[Tensor] = None, eps: Optional[float] = None) -> Tensor:
    """Root-mean-square normalisation over the last dimensions."""
def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-06, keepdim: bool = False) -> Tensor:
    """The pairwise ``p``-norm distance between rows of ``x1`` and ``x2`` (``eps`` added to the difference)."""
def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False, size_average: Optional[bool] = None, eps: float = 1e-08, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    """Poisson negative log likelihood loss."""
def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """Applies element-wise ``PReLU(x) = max(0, x) + weight * min(0, x)``, with a learnable ``weight`` per channel (or one)."""
def relu(x: Tensor, inplace: bool = False) -> Tensor:
    """Applies the rectified linear unit function element-wise."""
def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """Applies the element-wise function ``ReLU6(x) = min(max(0, x), 6)``."""
def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask: Optional[Tensor] = None, dropout_p: float = 0.0, is_causal: bool = False, scale: Optional[float] = None, enable_gqa: bool = False) -> Tensor:
    """Computes scaled dot product attention on query, key and value tensors, using an optional attention mask and causal masking (the math path; no fused kernels)."""
def selu(input: Tensor, inplace: bool = False) -> Tensor:
    """Applies element-wise ``SELU(x) = scale * (max(0, x) + min(0, alpha * (exp(x) - 1)))``."""
def sigmoid(x: Tensor) -> Tensor:
    """Applies the element-wise function ``1 / (1 + exp(-x))``."""
def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """Apply the Sigmoid Linear Unit (SiLU) function, element-wise: ``x * sigmoid(x)``."""
def smooth_l1_loss(input: Tensor, target: Tensor, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean", beta: float = 1.0) -> Tensor:
    """Compute the Smooth L1 loss (squared below ``beta``, linear above)."""
def soft_margin_loss(input: Tensor, target: Tensor, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    """The two-class soft margin loss: ``sum(log(1 + exp(-y * x))) / n``."""
def softmax(input: Tensor, dim: Optional[_int] = None, _stacklevel: _int = 3, dtype: Optional[_dtype] = None) -> Tensor:
    """Apply a softmax function along ``dim``: ``exp(x_i) / sum_j exp(x_j)``."""
def softmin(input: Tensor, dim: Optional[_int] = None, _stacklevel: _int = 3, dtype: Optional[_dtype] = None) -> Tensor:
    """Apply a softmin function along ``dim`` (``softmax(-x)``)."""
def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """Applies element-wise ``Softplus(x) = log(1 + exp(beta * x)) / beta`` (linear above ``threshold``)."""
def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """Apply the soft shrinkage function element-wise."""
def softsign(input: Tensor) -> Tensor:
    """Apply element-wise, the function ``x / (1 + |x|)``."""
def tanh(x: Tensor) -> Tensor:
    """Apply element-wise, ``tanh(x)``."""
def tanhshrink(input: Tensor) -> Tensor:
    """Apply element-wise, ``x - tanh(x)``."""
def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """Apply a threshold to each element: ``x`` if ``x > threshold`` else ``value``."""
def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2, eps: float = 1e-06, swap: bool = False, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    """The triplet margin loss between anchor, positive and negative examples."""
def unfold(input: Tensor, kernel_size: _size_any, dilation: _size_any = 1, padding: _size_any = 0, stride: Optional[_size_any] = 1) -> Tensor:
    """Extract sliding local blocks from a batched input tensor (im2col; 4-D input)."""
def embedding_bag(input: Tensor, weight: Tensor, offsets: Optional[Tensor] = None, max_norm: Optional[float] = None, norm_type: float = 2, scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False, per_sample_weights: Optional[Tensor] = None, include_last_offset: bool = False, padding_idx: Optional[_int] = None) -> Tensor:
    """Sums, means or maxes of bags of embeddings (rows of ``weight``), without instantiating the intermediate embeddings."""
def local_response_norm(input: Tensor, size: _int, alpha: float = 0.0001, beta: float = 0.75, k: float = 1.0) -> Tensor:
    """Local response normalisation across channels."""
def channel_shuffle(input: Tensor, groups: _int) -> Tensor:
    """Divide the channels of ``input`` into ``groups`` groups and interleave them."""
def native_channel_shuffle(input: Tensor, groups: _int) -> Tensor:
    """Divide the channels of ``input`` into ``groups`` groups and interleave them (``channel_shuffle``)."""
def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    """Alpha dropout (for SELU networks): keeps the mean and variance of the input."""
def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    """Alpha dropout of whole channels."""
def dropout3d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Randomly zero out entire channels (a channel is a 3D feature map) with probability ``p``."""
def rrelu(input: Tensor, lower: float = 0.125, upper: float = 0.3333333333333333, training: bool = False, inplace: bool = False) -> Tensor:
    """Randomized leaky ReLU: random slopes in training, ``(lower + upper) / 2`` in evaluation."""
def rrelu_(input: Tensor, lower: float = 0.125, upper: float = 0.3333333333333333, training: bool = False) -> Tensor:
    """In-place randomized leaky ReLU."""
def multi_margin_loss(input: Tensor, target: Tensor, p: _int = 1, margin: float = 1.0, weight: Optional[Tensor] = None, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    """Multi-class hinge loss (``p`` 1 or 2, optional class ``weight``)."""
def multilabel_margin_loss(input: Tensor, target: Tensor, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    """Multi-label hinge loss (``target`` class indices ended by ``-1``)."""
def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Optional[Tensor] = None, size_average: Optional[bool] = None, reduce: Optional[bool] = None, reduction: str = "mean") -> Tensor:
    """Multi-label one-versus-all loss based on max-entropy."""
def gumbel_softmax(logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10, dim: _int = -1) -> Tensor:
    """Sample from the Gumbel-softmax distribution (straight-through one-hot with ``hard=True``)."""
def lp_pool1d(input: Tensor, norm_type: Union[_int, float], kernel_size: _int, stride: Optional[_size_any] = None, ceil_mode: bool = False) -> Tensor:
    """1D power-average pooling."""
def lp_pool2d(input: Tensor, norm_type: Union[_int, float], kernel_size: _size_any, stride: Optional[_size_any] = None, ceil_mode: bool = False) -> Tensor:
    """2D power-average pooling."""
def max_unpool1d(input: Tensor, indices: Tensor, kernel_size: _size_any, stride: Optional[_size_any] = None, padding: _size_any = 0, output_size: Optional[Sequence[_int]] = None) -> Tensor:
    """Partial inverse of ``max_pool1d``."""
def max_unpool2d(input: Tensor, indices: Tensor, kernel_size: _size_any, stride: Optional[_size_any] = None, padding: _size_any = 0, output_size: Optional[Sequence[_int]] = None) -> Tensor:
    """Partial inverse of ``max_pool2d``."""
def affine_grid(theta: Tensor, size: Sequence[_int], align_corners: Optional[bool] = None) -> Tensor:
    """The sampling grid of a batch of affine maps ``theta`` (for ``grid_sample``)."""
def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear", padding_mode: str = "zeros", align_corners: Optional[bool] = None) -> Tensor:
    """Sample ``input`` at the ``[-1, 1]`` locations ``grid`` (bilinear or nearest; 4-D input)."""

def conv3d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, dilation: Any = 1, groups: Any = 1) -> Any: ...
def conv_transpose3d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, output_padding: Any = 0, groups: Any = 1, dilation: Any = 1) -> Any: ...
def max_pool3d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1, ceil_mode: Any = False, return_indices: Any = False) -> Any: ...
def max_pool3d_with_indices(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1, ceil_mode: Any = False, return_indices: Any = True) -> Any: ...
def max_pool1d_with_indices(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1, ceil_mode: Any = False, return_indices: Any = False) -> Any: ...
def avg_pool3d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: Any = False, count_include_pad: Any = True, divisor_override: Any = None) -> Any: ...
def adaptive_avg_pool3d(input: Any, output_size: Any) -> Any: ...
def adaptive_max_pool3d(input: Any, output_size: Any, return_indices: Any = False) -> Any: ...
def adaptive_max_pool3d_with_indices(input: Any, output_size: Any, return_indices: Any = False) -> Any: ...
def adaptive_max_pool1d_with_indices(input: Any, output_size: Any, return_indices: Any = False) -> Any: ...
def max_unpool3d(input: Any, indices: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, output_size: Any = None) -> Any: ...
def lp_pool3d(input: Any, norm_type: Any, kernel_size: Any, stride: Any = None, ceil_mode: Any = False) -> Any: ...
def ctc_loss(log_probs: Any, targets: Any, input_lengths: Any, target_lengths: Any, blank: Any = 0, reduction: Any = 'mean', zero_infinity: Any = False) -> Any: ...
def relu_(input: Any) -> Any: ...
def elu_(input: Any, alpha: Any = 1.0) -> Any: ...
def selu_(input: Any) -> Any: ...
def celu_(input: Any, alpha: Any = 1.0) -> Any: ...
def leaky_relu_(input: Any, negative_slope: Any = 0.01) -> Any: ...
def hardtanh_(input: Any, min_val: Any = -1.0, max_val: Any = 1.0) -> Any: ...
def threshold_(input: Any, threshold: Any, value: Any) -> Any: ...
def upsample(input: Any, size: Any = None, scale_factor: Any = None, mode: Any = 'nearest', align_corners: Any = None) -> Any: ...
def upsample_nearest(input: Any, size: Any = None, scale_factor: Any = None) -> Any: ...
def upsample_bilinear(input: Any, size: Any = None, scale_factor: Any = None) -> Any: ...
def pdist(input: Any, p: Any = 2) -> Any: ...
def triplet_margin_with_distance_loss(anchor: Any, positive: Any, negative: Any, *, distance_function: Any = None, margin: Any = 1.0, swap: Any = False, reduction: Any = 'mean') -> Any: ...
def fractional_max_pool2d(input: Any, kernel_size: Any, output_size: Any = None, output_ratio: Any = None, return_indices: Any = False, _random_samples: Any = None) -> Any: ...
def fractional_max_pool2d_with_indices(input: Any, kernel_size: Any, output_size: Any = None, output_ratio: Any = None, return_indices: Any = False, _random_samples: Any = None) -> Any: ...
def fractional_max_pool3d(input: Any, kernel_size: Any, output_size: Any = None, output_ratio: Any = None, return_indices: Any = False, _random_samples: Any = None) -> Any: ...
def fractional_max_pool3d_with_indices(input: Any, kernel_size: Any, output_size: Any = None, output_ratio: Any = None, return_indices: Any = False, _random_samples: Any = None) -> Any: ...
