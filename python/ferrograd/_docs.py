"""Docstrings for public Python objects whose source carries none, attached at import.

``help(torch.exp)``, ``help(torch.Tensor.float)`` or ``inspect.getdoc(nn.functional.relu)``
read ``__doc__``. Many public Python objects are thin wrappers (``torch.exp`` calls the
native ``Tensor.exp``; ``Tensor.float`` is a lambda) or have their documentation in the type
stubs. This module gives each of them its docstring:

* ``_FROM_STUBS`` is generated from the type stubs (``python/ferrograd/**/*.pyi``), the one
  place where those texts are edited, by
  ``python -c "from ferrograd import _docs; _docs._write()"`` (in a source checkout with an
  editable install); tests/python/test_docs.py fails while it is stale;
* ``_HERE`` documents objects of modules that have no stub.

An object that has a docstring of its own keeps it. Native (pyo3) methods and functions do not
accept ``__doc__`` from Python: their docstrings live in ``_C.pyi`` (so IDEs, type checkers and
the API reference show them) until the Rust bindings carry them as ``///`` comments.
"""

import inspect
import sys

# ---- written here: modules without stubs ----------------------------------------------------------
_HERE = {
    "ferrograd.nn.modules.module.Module.__call__": "Run ``forward`` with the module's forward pre-hooks and hooks (and backward hooks around it); call the module instead of ``forward`` directly.",
    "ferrograd.accelerator.is_available": "``True`` if an accelerator (a CUDA device) is usable.",
    "ferrograd.accelerator.device_count": "The number of accelerator devices (0 without a GPU).",
    "ferrograd.accelerator.current_device_index": "The index of the current accelerator device.",
    "ferrograd.accelerator.set_device_index": "Set the current accelerator device.",
    "ferrograd.accelerator.synchronize": "Wait for all work on the accelerator device to finish.",
    "ferrograd.cuda.is_available": "``True`` if a CUDA device is usable (False without an NVIDIA driver or GPU).",
    "ferrograd.cuda.device_count": "The number of CUDA devices (0 without a GPU).",
    "ferrograd.cuda.is_initialized": "``True`` once the CUDA state has been initialised.",
    "ferrograd.cuda.init": "Initialise the CUDA state (raises PyTorch's error without a usable device).",
    "ferrograd.cuda.current_device": "The index of the current CUDA device.",
    "ferrograd.cuda.set_device": "Set the current CUDA device.",
    "ferrograd.cuda.get_device_name": "The name of a CUDA device (the current one by default).",
    "ferrograd.cuda.synchronize": "Wait for all work on a CUDA device to finish.",
    "ferrograd.cuda.manual_seed_all": "Seed the random number generators of all CUDA devices.",
    "ferrograd.cuda.memory_allocated": "The bytes currently held by tensors on a CUDA device.",
    "ferrograd.cuda.max_memory_allocated": "The peak of ``memory_allocated`` since the start or the last reset.",
    "ferrograd.cuda.memory_reserved": "The bytes held by the caching allocator on a CUDA device.",
    "ferrograd.cuda.max_memory_reserved": "The peak of ``memory_reserved`` since the start or the last reset.",
    "ferrograd.cuda.reset_peak_memory_stats": "Reset the peak memory statistics of a CUDA device.",
    "ferrograd.cuda.empty_cache": "Release the cached, unused device memory of the caching allocator.",
    "ferrograd.cuda.current_stream": "The current stream of a CUDA device (its default stream in ferrograd).",
    "ferrograd.cuda.default_stream": "The default stream of a CUDA device.",
    "ferrograd.cuda.Stream.synchronize": "Wait for all work queued on this stream to finish.",
    "ferrograd.cuda.Stream.wait_stream": "Make later work on this stream wait for the work queued on ``stream``.",
    "ferrograd.cuda.Stream.wait_event": "Make later work on this stream wait for ``event``.",
    "ferrograd.cuda.Stream.record_event": "Record an event (a new one if not given) on this stream and return it.",
    "ferrograd.cuda.Stream.query": "``True`` if all work queued on this stream has finished.",
    "ferrograd.cuda.Event.record": "Record the event on a stream (the current one by default).",
    "ferrograd.cuda.Event.synchronize": "Wait until the work before the event's record has finished.",
    "ferrograd.cuda.Event.wait": "Make later work on a stream wait for this event.",
    "ferrograd.cuda.Event.query": "``True`` if the work before the event's record has finished.",
    "ferrograd.cuda.Event.elapsed_time": "The milliseconds between this event's record and ``end_event``'s.",
    "ferrograd.autograd.anomaly_mode.is_anomaly_enabled": "``True`` if anomaly detection is on.",
    "ferrograd.autograd.anomaly_mode.is_anomaly_check_nan_enabled": "``True`` if anomaly detection also checks backward results for NaN.",
    "ferrograd.utils.checkpoint.detach_variable": "Detached copies of the tensors in ``inputs``, keeping their ``requires_grad``.",
    "ferrograd.utils.checkpoint.noop_context_fn": "The default ``context_fn`` of ``checkpoint``: two no-op context managers.",
    "ferrograd.utils.checkpoint.CheckpointFunction.forward": "Run ``run_function`` without recording a graph, saving the inputs (and the RNG state).",
    "ferrograd.utils.checkpoint.CheckpointFunction.backward": "Re-run the forward with grad enabled and back-propagate through it.",
    "ferrograd.utils.data.dataset.ConcatDataset.cumsum": "The running totals of the lengths of ``sequence``'s datasets.",
    "ferrograd.utils.data.dataset.ConcatDataset.cummulative_sizes": "Deprecated alias of ``cumulative_sizes``.",
    "ferrograd.utils.data.sampler.RandomSampler.num_samples": "The number of indices one pass yields (``len(data_source)`` unless given).",
    "ferrograd.utils.hooks.RemovableHandle.remove": "Unregister the hook (idempotent).",
    "ferrograd.utils.hooks.BackwardHook.setup_input_hook": "Wrap the module's inputs so that the full backward hook sees their gradients.",
    "ferrograd.utils.hooks.BackwardHook.setup_output_hook": "Wrap the module's outputs so that the backward pre-hooks see their gradients.",
    # torch.distributed (MPI backend) as PyTorch words it
    "ferrograd.distributed.distributed_c10d.GroupMember": "Group member constants: ``GroupMember.WORLD`` (the default group) and ``GroupMember.NON_GROUP_MEMBER``.",
    "ferrograd.distributed.distributed_c10d.ReduceOp.RedOpType": "The reduction operations (``SUM``, ``AVG``, ``PRODUCT``, ``MIN``, ``MAX``, ...) as an enum; ``ReduceOp.SUM`` and friends are its members.",
    "ferrograd.distributed.distributed_c10d.ProcessGroup.rank": "The rank of this process in the group.",
    "ferrograd.distributed.distributed_c10d.ProcessGroup.size": "The number of processes in the group.",
    "ferrograd.distributed.distributed_c10d.ProcessGroup.name": "The name of the group's backend.",
    "ferrograd.distributed.distributed_c10d.Work.is_completed": "``True`` if the operation has finished (non-blocking).",
    "ferrograd.distributed.distributed_c10d.Work.wait": "Block until the operation has finished; returns ``True`` (raises if it failed).",
    "ferrograd.distributed.distributed_c10d.Work.is_success": "``True`` if the operation finished successfully.",
    "ferrograd.distributed.distributed_c10d.Work.exception": "The exception the operation raised, or ``None``.",
    "ferrograd.distributed.distributed_c10d.Work.result": "The output tensors of the operation.",
    "ferrograd.distributed.distributed_c10d.Work.source_rank": "For a receive from any source, the rank the message came from.",
    "ferrograd.distributed.distributed_c10d.Work.synchronize": "Wait for the operation (as ``wait``).",
    "ferrograd.distributed.distributed_c10d.barrier": "Synchronize all processes: returns once every process of the group has entered it (``async_op=True``: a work handle).",
    "ferrograd.distributed.distributed_c10d.destroy_process_group": "Destroy a process group (the default one: deinitialize the package).",
    "ferrograd.distributed.distributed_c10d.get_backend": "The backend of the given process group (``'mpi'``).",
    "ferrograd.distributed.distributed_c10d.get_global_rank": "Translate a group rank into a global rank.",
    "ferrograd.distributed.distributed_c10d.get_group_rank": "Translate a global rank into a group rank.",
    "ferrograd.distributed.distributed_c10d.get_process_group_ranks": "The global ranks of all members of ``group``.",
    "ferrograd.distributed.distributed_c10d.get_rank": "The rank of the current process in the provided ``group`` (the default group otherwise).",
    "ferrograd.distributed.distributed_c10d.get_world_size": "The number of processes in the current process group.",
    "ferrograd.distributed.distributed_c10d.irecv": "Receives a tensor asynchronously; returns a work handle.",
    "ferrograd.distributed.distributed_c10d.isend": "Send a tensor asynchronously; returns a work handle (do not modify ``tensor`` before it completes).",
    "ferrograd.distributed.distributed_c10d.send": "Send a tensor synchronously.",
    "ferrograd.distributed.distributed_c10d.is_initialized": "``True`` if the default process group has been initialized.",
    "ferrograd.distributed.distributed_c10d.is_mpi_available": "``True`` if the MPI backend is available (mpi4py imports).",
    "ferrograd.distributed.distributed_c10d.is_nccl_available": "``False``: ferrograd has no NCCL backend.",
    "ferrograd.distributed.distributed_c10d.is_ucc_available": "``False``: ferrograd has no UCC backend.",
    "ferrograd.distributed.distributed_c10d.is_xccl_available": "``False``: ferrograd has no XCCL backend.",
    "ferrograd.distributed.distributed_c10d.is_torchelastic_launched": "``True`` if this process was launched by torchelastic (``TORCHELASTIC_RUN_ID`` is set).",
    "ferrograd.autograd.gradcheck.GradcheckError": "Error raised by ``gradcheck`` and ``gradgradcheck`` when the analytical and numerical gradients disagree (a ``RuntimeError``).",
    "ferrograd.utils.checkpoint.CheckpointFunction": "The reentrant checkpoint (``checkpoint(..., use_reentrant=True)``) as an ``autograd.Function``: forward without a graph, recompute in backward.",
    "ferrograd.utils.data.distributed.DistributedSampler": "Sampler that restricts data loading to a subset of the dataset for each process of a distributed group (``num_replicas``, ``rank``; shuffled per epoch with ``set_epoch``).",
    "ferrograd.nn.parallel.distributed.DistributedDataParallel.broadcast_buffers": "Whether the module's buffers are broadcast from rank 0 at the start of each forward.",
}
_LEGACY = "``torch.{name}``: calling it makes a tensor of dtype ``{dtype}`` (``{name}(2, 3)``, ``{name}([1, 2])``); ``isinstance(x, torch.{name})`` checks a tensor's dtype{cuda}."
for _name, _dt in (("FloatTensor", "float32"), ("DoubleTensor", "float64"), ("LongTensor", "int64"), ("IntTensor", "int32"),
                   ("BoolTensor", "bool"), ("HalfTensor", "float16"), ("ShortTensor", "int16"), ("CharTensor", "int8"),
                   ("ByteTensor", "uint8"), ("BFloat16Tensor", "bfloat16")):
    _HERE["ferrograd." + _name] = _LEGACY.format(name=_name, dtype=_dt, cuda="")
    _HERE["ferrograd.cuda." + _name] = _LEGACY.format(name="cuda." + _name, dtype=_dt, cuda=" and that it is on a CUDA device")

# ---- generated from the stubs: _docs._write() -----------------------------------------------------------
# BEGIN GENERATED
_FROM_STUBS = {
    'ferrograd._C.Tensor.__lshift__': '``self << other`` (see ``bitwise_left_shift``).',
    'ferrograd._C.Tensor.__rshift__': '``self >> other`` (see ``bitwise_right_shift``).',
    'ferrograd._C.Tensor.argsort': 'The indices that sort the tensor along ``dim``.',
    'ferrograd._C.Tensor.bitwise_not': 'Bitwise NOT of an integer or bool tensor.',
    'ferrograd._C.Tensor.bool': '``self.to(torch.bool)``.',
    'ferrograd._C.Tensor.byte': '``self.to(torch.uint8)``.',
    'ferrograd._C.Tensor.char': '``self.to(torch.int8)``.',
    'ferrograd._C.Tensor.const_data_ptr': 'The address of the first element (``data_ptr``).',
    'ferrograd._C.Tensor.cpu': 'A copy of this tensor in CPU memory (``self`` if already on the CPU).',
    'ferrograd._C.Tensor.cuda': 'A copy of this tensor in CUDA memory (``self`` if already there).',
    'ferrograd._C.Tensor.double': '``self.to(torch.float64)``.',
    'ferrograd._C.Tensor.float': '``self.to(torch.float32)``.',
    'ferrograd._C.Tensor.half': '``self.to(torch.float16)``.',
    'ferrograd._C.Tensor.igamma': 'The regularized lower incomplete gamma function.',
    'ferrograd._C.Tensor.igammac': 'The regularized upper incomplete gamma function.',
    'ferrograd._C.Tensor.int': '``self.to(torch.int32)``.',
    'ferrograd._C.Tensor.long': '``self.to(torch.int64)``.',
    'ferrograd._C.Tensor.new_empty': "An uninitialised tensor of ``size``, by default with this tensor's dtype and device.",
    'ferrograd._C.Tensor.new_full': "A tensor of ``size`` filled with ``fill_value``, by default with this tensor's dtype and device.",
    'ferrograd._C.Tensor.new_ones': "A tensor of ``size`` filled with 1, by default with this tensor's dtype and device.",
    'ferrograd._C.Tensor.new_tensor': "A new tensor with ``data``, by default with this tensor's dtype and device.",
    'ferrograd._C.Tensor.new_zeros': "A tensor of ``size`` filled with 0, by default with this tensor's dtype and device.",
    'ferrograd._C.Tensor.nonzero_static': '``nonzero()`` with exactly ``size`` rows.',
    'ferrograd._C.Tensor.short': '``self.to(torch.int16)``.',
    'ferrograd._C.Tensor.swapaxes_': 'In-place ``swapaxes`` (``transpose_``).',
    'ferrograd._C.Tensor.swapdims_': 'In-place ``swapdims`` (``transpose_``).',
    'ferrograd._C.Tensor.type_as': 'This tensor cast to the dtype of ``other``.',
    'ferrograd._C.Tensor.where': '``torch.where(condition, self, other)``.',
    'ferrograd._LegacyMeta': 'The metaclass of the legacy tensor types: calling one makes a tensor of its dtype;\n``isinstance(x, torch.FloatTensor)`` checks the dtype and device.',
    'ferrograd._helpers.Size.numel': 'The number of elements a tensor of this size has (the product of the sizes).',
    'ferrograd.autograd.function.BackwardCFunction.apply': "Call the Function's ``backward`` with this node as ``ctx``.",
    'ferrograd.autograd.function.BackwardCFunction.metadata': 'A dict for user data attached to this node.',
    'ferrograd.autograd.function.Function.apply': "Run the operation: ``forward`` under no-grad, then record the node if any input\nrequires grad. Returns ``forward``'s outputs.",
    'ferrograd.autograd.function.Function.backward': 'Define the gradient formula: one gradient (or ``None``) per ``forward`` input (override it).',
    'ferrograd.autograd.function.Function.forward': 'Define the forward of the custom operation (override it).',
    'ferrograd.autograd.function.Function.setup_context': 'Optional: save what ``backward`` needs, when ``forward`` does not take ``ctx``.',
    'ferrograd.autograd.function.FunctionCtx.mark_dirty': 'Mark the inputs that ``forward`` modified in place (they must be returned as outputs).',
    'ferrograd.autograd.function.FunctionCtx.mark_non_differentiable': 'Mark outputs as not differentiable (their gradients are always zero / ``None``).',
    'ferrograd.autograd.function.FunctionCtx.save_for_backward': 'Save tensors (inputs or outputs of ``forward``; ``None`` allowed) for ``backward``,\nwhere ``ctx.saved_tensors`` returns them, checked against in-place modification.',
    'ferrograd.autograd.function.FunctionCtx.save_for_forward': 'Save tensors for a ``jvp`` (forward-mode) rule.',
    'ferrograd.autograd.function.FunctionCtx.saved_tensors': "The tensors given to ``save_for_backward`` (``None`` entries kept, typed as\ntensors as in PyTorch's stubs).",
    'ferrograd.autograd.function.FunctionCtx.set_materialize_grads': 'Whether ``None`` output gradients are replaced by zero tensors before ``backward``\n(default ``True``).',
    'ferrograd.autograd.function.InplaceFunction': 'Legacy PyTorch API; kept so that code naming it imports.',
    'ferrograd.autograd.grad_mode.inference_mode.clone': 'A new context manager with the same mode (used when decorating functions).',
    'ferrograd.autograd.grad_mode.set_grad_enabled.clone': 'A new context manager with the same mode (used when decorating functions).',
    'ferrograd.bitwise_not': 'Bitwise NOT of an integer or bool tensor.',
    'ferrograd.cat': 'Concatenate tensors of the same shape (except in ``dim``) along ``dim``.',
    'ferrograd.empty_like': 'An uninitialised tensor with the size of ``input`` (and its dtype and device unless given).',
    'ferrograd.full_like': 'A tensor filled with ``fill_value`` with the size of ``input`` (and its dtype and device unless given).',
    'ferrograd.get_default_device': 'The device factories use when no ``device=`` is given.',
    'ferrograd.get_default_dtype': 'The default floating-point dtype (``float32`` unless changed).',
    'ferrograd.is_floating_point': '``True`` if the dtype of ``t`` is a floating-point type.',
    'ferrograd.is_tensor': '``True`` if ``obj`` is a ferrograd tensor.',
    'ferrograd.isclose': 'Element-wise ``|input - other| <= atol + rtol * |other|``, as a bool tensor.',
    'ferrograd.nn.functional.adaptive_avg_pool1d': 'Applies a 1D adaptive average pooling over an input signal composed of several input planes (output length ``output_size``).',
    'ferrograd.nn.functional.adaptive_avg_pool2d': 'Applies a 2D adaptive average pooling over an input signal composed of several input planes (output size ``output_size``).',
    'ferrograd.nn.functional.adaptive_max_pool1d': 'Applies a 1D adaptive max pooling over an input signal composed of several input planes; with ``return_indices=True`` also the argmax indices.',
    'ferrograd.nn.functional.adaptive_max_pool2d': 'Applies a 2D adaptive max pooling over an input signal composed of several input planes; with ``return_indices=True`` also the argmax indices.',
    'ferrograd.nn.functional.adaptive_max_pool2d_with_indices': '2D adaptive max pooling that returns ``(output, indices)``.',
    'ferrograd.nn.functional.avg_pool1d': 'Applies a 1D average pooling over an input signal composed of several input planes.',
    'ferrograd.nn.functional.avg_pool2d': 'Applies 2D average-pooling operation in ``kH x kW`` regions by step size ``sH x sW`` steps.',
    'ferrograd.nn.functional.batch_norm': 'Apply Batch Normalization for each channel across a batch of data (running statistics updated in training mode).',
    'ferrograd.nn.functional.bilinear': 'Applies a bilinear transformation to the incoming data: ``y = x1^T A x2 + b``.',
    'ferrograd.nn.functional.binary_cross_entropy': 'Measure Binary Cross Entropy between the target and input probabilities.',
    'ferrograd.nn.functional.binary_cross_entropy_with_logits': 'Calculate Binary Cross Entropy between target and input logits (a sigmoid layer and BCE in one, numerically stable).',
    'ferrograd.nn.functional.celu': 'Applies element-wise ``CELU(x) = max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``.',
    'ferrograd.nn.functional.conv1d': 'Applies a 1D convolution over an input signal composed of several input planes.',
    'ferrograd.nn.functional.conv2d': "Applies a 2D convolution over an input image composed of several input planes (``padding`` may be ``'same'`` or ``'valid'``).",
    'ferrograd.nn.functional.conv_transpose1d': 'Applies a 1D transposed convolution operator over an input signal composed of several input planes.',
    'ferrograd.nn.functional.conv_transpose2d': 'Applies a 2D transposed convolution operator over an input image composed of several input planes.',
    'ferrograd.nn.functional.cosine_embedding_loss': 'The cosine embedding loss: ``1 - cos(x1, x2)`` for ``y = 1``, ``max(0, cos(x1, x2) - margin)`` for ``y = -1``.',
    'ferrograd.nn.functional.dropout': "During training, randomly zeroes some elements of the input tensor with probability ``p`` and scales the rest by ``1 / (1 - p)`` (PyTorch's CPU random stream).",
    'ferrograd.nn.functional.dropout1d': 'Randomly zero out entire channels (a channel is a 1D feature map) with probability ``p``.',
    'ferrograd.nn.functional.dropout2d': 'Randomly zero out entire channels (a channel is a 2D feature map) with probability ``p``.',
    'ferrograd.nn.functional.elu': 'Apply the Exponential Linear Unit (ELU) function element-wise.',
    'ferrograd.nn.functional.embedding': 'Generate a simple lookup table that looks up embeddings in a fixed dictionary (``weight``) by index.',
    'ferrograd.nn.functional.flatten': 'Flattens ``input`` by reshaping it into a one-dimensional tensor (dimensions ``start_dim`` to ``end_dim``).',
    'ferrograd.nn.functional.fold': 'Combine an array of sliding local blocks into a large containing tensor (the adjoint of ``unfold``; 4-D output).',
    'ferrograd.nn.functional.gaussian_nll_loss': 'Gaussian negative log likelihood loss, with the predicted variance ``var``.',
    'ferrograd.nn.functional.gelu': "Gaussian Error Linear Units: ``x * Phi(x)``, or its tanh approximation with ``approximate='tanh'``.",
    'ferrograd.nn.functional.glu': 'The gated linear unit: ``a * sigmoid(b)`` where ``input`` is split in half along ``dim`` into ``a`` and ``b``.',
    'ferrograd.nn.functional.group_norm': 'Apply Group Normalization over the channels, in ``num_groups`` groups.',
    'ferrograd.nn.functional.hardshrink': 'Apply the hard shrinkage function element-wise: ``x`` if ``|x| > lambd`` else 0.',
    'ferrograd.nn.functional.hardsigmoid': 'Apply the Hardsigmoid function element-wise: ``relu6(x + 3) / 6``.',
    'ferrograd.nn.functional.hardswish': 'Apply hardswish function, element-wise: ``x * relu6(x + 3) / 6``.',
    'ferrograd.nn.functional.hardtanh': 'Apply the HardTanh function element-wise: clamp to ``[min_val, max_val]``.',
    'ferrograd.nn.functional.hinge_embedding_loss': 'The hinge embedding loss (``x`` for ``y = 1``, ``max(0, margin - x)`` for ``y = -1``).',
    'ferrograd.nn.functional.huber_loss': 'Compute the Huber loss: squared below ``delta``, linear above (optionally weighted).',
    'ferrograd.nn.functional.kl_div': 'Compute the KL Divergence loss (``input`` as log-probabilities; ``target`` as probabilities, or log-probabilities with ``log_target=True``).',
    'ferrograd.nn.functional.l1_loss': 'Compute the L1 loss: the mean (or sum) absolute element-wise difference.',
    'ferrograd.nn.functional.layer_norm': 'Apply Layer Normalization over the last ``len(normalized_shape)`` dimensions.',
    'ferrograd.nn.functional.leaky_relu': 'Applies element-wise ``LeakyReLU(x) = max(0, x) + negative_slope * min(0, x)``.',
    'ferrograd.nn.functional.log_softmax': 'Apply a softmax followed by a logarithm, computed stably, along ``dim``.',
    'ferrograd.nn.functional.logsigmoid': 'Applies element-wise ``LogSigmoid(x) = log(1 / (1 + exp(-x)))``.',
    'ferrograd.nn.functional.margin_ranking_loss': 'The margin ranking loss: ``max(0, -y * (x1 - x2) + margin)``.',
    'ferrograd.nn.functional.max_pool1d': 'Applies a 1D max pooling over an input signal composed of several input planes; with ``return_indices=True`` also the argmax indices.',
    'ferrograd.nn.functional.max_pool2d': 'Applies a 2D max pooling over an input signal composed of several input planes; with ``return_indices=True`` also the argmax indices.',
    'ferrograd.nn.functional.max_pool2d_with_indices': '2D max pooling that returns ``(output, indices)``.',
    'ferrograd.nn.functional.mish': 'Apply the Mish function, element-wise: ``x * tanh(softplus(x))``.',
    'ferrograd.nn.functional.mse_loss': 'Compute the element-wise mean squared error (optionally weighted).',
    'ferrograd.nn.functional.nll_loss': 'Compute the negative log likelihood loss of log-probabilities ``input`` for class indices ``target``.',
    'ferrograd.nn.functional.normalize': 'Perform ``L_p`` normalization of inputs over the specified dimension: ``v / max(||v||_p, eps)``.',
    'ferrograd.nn.functional.one_hot': 'Takes a LongTensor of class indices and returns a tensor of zeros with a 1 at each index (``num_classes=-1``: one more than the largest index).',
    'ferrograd.nn.functional.pairwise_distance': 'The pairwise ``p``-norm distance between rows of ``x1`` and ``x2`` (``eps`` added to the difference).',
    'ferrograd.nn.functional.poisson_nll_loss': 'Poisson negative log likelihood loss.',
    'ferrograd.nn.functional.prelu': 'Applies element-wise ``PReLU(x) = max(0, x) + weight * min(0, x)``, with a learnable ``weight`` per channel (or one).',
    'ferrograd.nn.functional.relu': 'Applies the rectified linear unit function element-wise.',
    'ferrograd.nn.functional.relu6': 'Applies the element-wise function ``ReLU6(x) = min(max(0, x), 6)``.',
    'ferrograd.nn.functional.selu': 'Applies element-wise ``SELU(x) = scale * (max(0, x) + min(0, alpha * (exp(x) - 1)))``.',
    'ferrograd.nn.functional.sigmoid': 'Applies the element-wise function ``1 / (1 + exp(-x))``.',
    'ferrograd.nn.functional.silu': 'Apply the Sigmoid Linear Unit (SiLU) function, element-wise: ``x * sigmoid(x)``.',
    'ferrograd.nn.functional.smooth_l1_loss': 'Compute the Smooth L1 loss (squared below ``beta``, linear above).',
    'ferrograd.nn.functional.soft_margin_loss': 'The two-class soft margin loss: ``sum(log(1 + exp(-y * x))) / n``.',
    'ferrograd.nn.functional.softmax': 'Apply a softmax function along ``dim``: ``exp(x_i) / sum_j exp(x_j)``.',
    'ferrograd.nn.functional.softmin': 'Apply a softmin function along ``dim`` (``softmax(-x)``).',
    'ferrograd.nn.functional.softplus': 'Applies element-wise ``Softplus(x) = log(1 + exp(beta * x)) / beta`` (linear above ``threshold``).',
    'ferrograd.nn.functional.softshrink': 'Apply the soft shrinkage function element-wise.',
    'ferrograd.nn.functional.softsign': 'Apply element-wise, the function ``x / (1 + |x|)``.',
    'ferrograd.nn.functional.tanh': 'Apply element-wise, ``tanh(x)``.',
    'ferrograd.nn.functional.tanhshrink': 'Apply element-wise, ``x - tanh(x)``.',
    'ferrograd.nn.functional.threshold': 'Apply a threshold to each element: ``x`` if ``x > threshold`` else ``value``.',
    'ferrograd.nn.functional.triplet_margin_loss': 'The triplet margin loss between anchor, positive and negative examples.',
    'ferrograd.nn.functional.unfold': 'Extract sliding local blocks from a batched input tensor (im2col; 4-D input).',
    'ferrograd.nn.modules.activation.CELU': 'Applies the CELU function element-wise: ``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``.',
    'ferrograd.nn.modules.activation.ELU': 'Applies the Exponential Linear Unit (ELU) function, element-wise: ``x`` if ``x > 0`` else ``alpha * (exp(x) - 1)``.',
    'ferrograd.nn.modules.activation.GELU': "Applies the Gaussian Error Linear Units function: ``x * Phi(x)`` (``approximate='tanh'``: the tanh approximation).",
    'ferrograd.nn.modules.activation.GLU': 'Applies the gated linear unit function: ``a * sigmoid(b)``, the input split in half along ``dim``.',
    'ferrograd.nn.modules.activation.Hardshrink': 'Applies the Hard Shrinkage (Hardshrink) function element-wise: ``x`` if ``|x| > lambd`` else 0.',
    'ferrograd.nn.modules.activation.Hardsigmoid': 'Applies the Hardsigmoid function element-wise: ``relu6(x + 3) / 6``.',
    'ferrograd.nn.modules.activation.Hardswish': 'Applies the Hardswish function, element-wise: ``x * relu6(x + 3) / 6``.',
    'ferrograd.nn.modules.activation.Hardtanh': 'Applies the HardTanh function element-wise: clamp to ``[min_val, max_val]``.',
    'ferrograd.nn.modules.activation.LeakyReLU': 'Applies the LeakyReLU function element-wise: ``max(0, x) + negative_slope * min(0, x)``.',
    'ferrograd.nn.modules.activation.LogSigmoid': 'Applies the LogSigmoid function element-wise: ``log(1 / (1 + exp(-x)))``.',
    'ferrograd.nn.modules.activation.LogSoftmax': 'Applies the ``log(Softmax(x))`` function to an n-dimensional input Tensor along ``dim``, computed stably.',
    'ferrograd.nn.modules.activation.Mish': 'Applies the Mish function, element-wise: ``x * tanh(softplus(x))``.',
    'ferrograd.nn.modules.activation.PReLU': 'Applies the element-wise PReLU function: ``max(0, x) + a * min(0, x)`` with a learnable ``a`` (one, or one per channel).',
    'ferrograd.nn.modules.activation.PReLU.reset_parameters': 'Reset ``weight`` to ``init``.',
    'ferrograd.nn.modules.activation.ReLU6': 'Applies the ReLU6 function element-wise: ``min(max(0, x), 6)``.',
    'ferrograd.nn.modules.activation.SELU': "Applies the SELU function element-wise: ``scale * (max(0, x) + min(0, alpha * (exp(x) - 1)))`` with PyTorch's constants.",
    'ferrograd.nn.modules.activation.SiLU': 'Applies the Sigmoid Linear Unit (SiLU) function, element-wise: ``x * sigmoid(x)``.',
    'ferrograd.nn.modules.activation.Softmax': 'Applies the Softmax function to an n-dimensional input Tensor along ``dim``: elements in ``[0, 1]`` summing to 1.',
    'ferrograd.nn.modules.activation.Softmin': 'Applies the Softmin function (``softmax(-x)``) to an n-dimensional input Tensor along ``dim``.',
    'ferrograd.nn.modules.activation.Softplus': 'Applies the Softplus function element-wise: ``log(1 + exp(beta * x)) / beta`` (linear above ``threshold``).',
    'ferrograd.nn.modules.activation.Softshrink': 'Applies the soft shrinkage function element-wise: ``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0.',
    'ferrograd.nn.modules.activation.Softsign': 'Applies the element-wise Softsign function: ``x / (1 + |x|)``.',
    'ferrograd.nn.modules.activation.Tanhshrink': 'Applies the element-wise Tanhshrink function: ``x - tanh(x)``.',
    'ferrograd.nn.modules.activation.Threshold': 'Thresholds each element of the input Tensor: ``x`` if ``x > threshold`` else ``value``.',
    'ferrograd.nn.modules.batchnorm.BatchNorm1d': 'Applies Batch Normalization over a 2D or 3D input ``(N, C)`` / ``(N, C, L)``, with running statistics for evaluation.',
    'ferrograd.nn.modules.batchnorm.BatchNorm2d': 'Applies Batch Normalization over a 4D input ``(N, C, H, W)``, with running statistics for evaluation.',
    'ferrograd.nn.modules.batchnorm.BatchNorm3d': 'Applies Batch Normalization over a 5D input ``(N, C, D, H, W)``, with running statistics for evaluation.',
    'ferrograd.nn.modules.container.ModuleDict.clear': 'Remove all items from the ModuleDict.',
    'ferrograd.nn.modules.container.ModuleDict.items': 'Return an iterable of the ModuleDict key/value pairs.',
    'ferrograd.nn.modules.container.ModuleDict.keys': 'Return an iterable of the ModuleDict keys.',
    'ferrograd.nn.modules.container.ModuleDict.pop': 'Remove key from the ModuleDict and return its module.',
    'ferrograd.nn.modules.container.ModuleDict.values': 'Return an iterable of the ModuleDict values.',
    'ferrograd.nn.modules.container.ModuleList.pop': 'Remove and return the module at index ``key``.',
    'ferrograd.nn.modules.container.ParameterDict.clear': 'Remove all items from the ParameterDict.',
    'ferrograd.nn.modules.container.ParameterDict.fromkeys': 'Return a new ParameterDict with the keys provided, each set to ``default``.',
    'ferrograd.nn.modules.container.ParameterDict.get': 'Return the parameter associated with key if present, otherwise ``default``.',
    'ferrograd.nn.modules.container.ParameterDict.items': 'Return an iterable of the ParameterDict key/value pairs.',
    'ferrograd.nn.modules.container.ParameterDict.keys': 'Return an iterable of the ParameterDict keys.',
    'ferrograd.nn.modules.container.ParameterDict.pop': 'Remove key from the ParameterDict and return its parameter.',
    'ferrograd.nn.modules.container.ParameterDict.popitem': 'Remove and return the last inserted ``(key, parameter)`` pair.',
    'ferrograd.nn.modules.container.ParameterDict.setdefault': 'Set the default for a key in the ParameterDict: return its value if present, else insert ``default`` and return it.',
    'ferrograd.nn.modules.container.ParameterDict.values': 'Return an iterable of the ParameterDict values.',
    'ferrograd.nn.modules.container.Sequential.pop': 'Remove and return the module at index ``key``.',
    'ferrograd.nn.modules.conv.Conv1d': "Applies a 1D convolution over an input signal composed of several input planes (``padding`` may be ``'same'``/``'valid'``; padding modes ``zeros``, ``reflect``, ``replicate``, ``circular``).",
    'ferrograd.nn.modules.conv.Conv2d': "Applies a 2D convolution over an input signal composed of several input planes (``padding`` may be ``'same'``/``'valid'``; padding modes ``zeros``, ``reflect``, ``replicate``, ``circular``). Computed via im2col and GEMM.",
    'ferrograd.nn.modules.conv.ConvTranspose1d': 'Applies a 1D transposed convolution operator over an input image composed of several input planes.',
    'ferrograd.nn.modules.conv.ConvTranspose2d': 'Applies a 2D transposed convolution operator over an input image composed of several input planes.',
    'ferrograd.nn.modules.dropout.Dropout': "During training, randomly zeroes some of the elements of the input tensor with probability ``p`` and scales the rest by ``1 / (1 - p)``; the identity in eval mode. Masks follow PyTorch's CPU random stream.",
    'ferrograd.nn.modules.dropout.Dropout1d': 'Randomly zero out entire channels (1D feature maps) with probability ``p`` during training.',
    'ferrograd.nn.modules.dropout.Dropout2d': 'Randomly zero out entire channels (2D feature maps) with probability ``p`` during training.',
    'ferrograd.nn.modules.flatten.Flatten': 'Flattens a contiguous range of dims into a tensor (``start_dim=1`` to ``end_dim=-1`` by default).',
    'ferrograd.nn.modules.flatten.Unflatten': 'Unflattens a tensor dim expanding it to a desired shape (``unflattened_size``).',
    'ferrograd.nn.modules.loss.BCELoss': 'Creates a criterion that measures the Binary Cross Entropy between the target and the input probabilities.',
    'ferrograd.nn.modules.loss.BCEWithLogitsLoss': 'This loss combines a Sigmoid layer and the BCELoss in one single class, numerically more stable (``pos_weight`` supported).',
    'ferrograd.nn.modules.loss.CosineEmbeddingLoss': 'Creates a criterion that measures the loss given two inputs and a label ``y`` of 1 or -1, using the cosine similarity.',
    'ferrograd.nn.modules.loss.GaussianNLLLoss': 'Gaussian negative log likelihood loss, with the predicted variance as a third input.',
    'ferrograd.nn.modules.loss.HingeEmbeddingLoss': 'Measures the loss given an input tensor ``x`` and a labels tensor ``y`` (containing 1 or -1).',
    'ferrograd.nn.modules.loss.HuberLoss': 'Creates a criterion that uses a squared term if the absolute element-wise error falls below ``delta`` and a delta-scaled L1 term otherwise.',
    'ferrograd.nn.modules.loss.KLDivLoss': 'The Kullback-Leibler divergence loss (input as log-probabilities; ``log_target`` for a log-probability target).',
    'ferrograd.nn.modules.loss.L1Loss': 'Creates a criterion that measures the mean absolute error (MAE) between each element in the input and target.',
    'ferrograd.nn.modules.loss.MarginRankingLoss': 'Creates a criterion that measures the loss ``max(0, -y * (x1 - x2) + margin)`` for a ranking label ``y`` of 1 or -1.',
    'ferrograd.nn.modules.loss.NLLLoss': 'The negative log likelihood loss, for log-probabilities and class-index targets (optional class ``weight``, ``ignore_index``).',
    'ferrograd.nn.modules.loss.PoissonNLLLoss': 'Negative log likelihood loss with Poisson distribution of target.',
    'ferrograd.nn.modules.loss.SmoothL1Loss': 'Creates a criterion that uses a squared term if the absolute element-wise error falls below ``beta`` and an L1 term otherwise.',
    'ferrograd.nn.modules.loss.SoftMarginLoss': 'Creates a criterion that optimizes a two-class classification logistic loss: ``sum(log(1 + exp(-y * x))) / n``.',
    'ferrograd.nn.modules.loss.TripletMarginLoss': 'Creates a criterion that measures the triplet loss given anchor, positive and negative examples and a ``margin``.',
    'ferrograd.nn.modules.normalization.GroupNorm': 'Applies Group Normalization over a mini-batch of inputs: the channels are split into ``num_groups`` groups, each normalized separately.',
    'ferrograd.nn.modules.normalization.LayerNorm': 'Applies Layer Normalization over the last dimensions of a mini-batch of inputs (``normalized_shape``), with optional learnable affine parameters.',
    'ferrograd.nn.modules.pooling.AdaptiveAvgPool1d': 'Applies a 1D adaptive average pooling over an input signal composed of several input planes (output length ``output_size``).',
    'ferrograd.nn.modules.pooling.AdaptiveAvgPool2d': 'Applies a 2D adaptive average pooling over an input signal composed of several input planes (output size ``output_size``).',
    'ferrograd.nn.modules.pooling.AdaptiveMaxPool1d': 'Applies a 1D adaptive max pooling over an input signal composed of several input planes.',
    'ferrograd.nn.modules.pooling.AdaptiveMaxPool2d': 'Applies a 2D adaptive max pooling over an input signal composed of several input planes.',
    'ferrograd.nn.modules.pooling.AvgPool1d': 'Applies a 1D average pooling over an input signal composed of several input planes.',
    'ferrograd.nn.modules.pooling.AvgPool2d': 'Applies a 2D average pooling over an input signal composed of several input planes.',
    'ferrograd.nn.modules.pooling.MaxPool1d': 'Applies a 1D max pooling over an input signal composed of several input planes.',
    'ferrograd.nn.modules.pooling.MaxPool2d': 'Applies a 2D max pooling over an input signal composed of several input planes.',
    'ferrograd.nn.modules.rnn.LSTM.check_forward_args': 'Check the input and the ``(h_0, c_0)`` pair before the forward pass.',
    'ferrograd.nn.modules.rnn.LSTM.get_expected_cell_size': 'The cell state shape this input needs: ``(num_layers * num_directions, batch, hidden_size)``.',
    'ferrograd.nn.modules.rnn.LSTM.permute_hidden': "Reorder both states' batch by ``permutation`` (identity when ``None``).",
    'ferrograd.nn.modules.rnn.RNNBase.all_weights': 'The parameters of every layer and direction, as lists ``[w_ih, w_hh, b_ih, b_hh, (w_hr)]``.',
    'ferrograd.nn.modules.rnn.RNNBase.check_forward_args': 'Check the input and hidden state together before the forward pass.',
    'ferrograd.nn.modules.rnn.RNNBase.check_hidden_size': "Raise PyTorch's error if ``hx`` does not have ``expected_hidden_size``.",
    'ferrograd.nn.modules.rnn.RNNBase.check_input': "Check the input's dtype and number of dimensions (PyTorch's errors).",
    'ferrograd.nn.modules.rnn.RNNBase.get_expected_hidden_size': 'The hidden state shape this input needs: ``(num_layers * num_directions, batch, hidden)``.',
    'ferrograd.nn.modules.rnn.RNNBase.permute_hidden': "Reorder the hidden state's batch by ``permutation`` (identity when ``None``).",
    'ferrograd.nn.modules.rnn.RNNBase.reset_parameters': 'Re-initialise all weights from ``U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))``.',
    'ferrograd.nn.modules.rnn.RNNCellBase.reset_parameters': 'Re-initialise all weights from ``U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))``.',
    'ferrograd.nn.modules.sparse.Embedding': 'A simple lookup table that stores embeddings of a fixed dictionary and size: indices in, rows of ``weight`` out (``padding_idx`` rows get no gradient).',
    'ferrograd.nn.modules.sparse.Embedding.from_pretrained': 'Create an Embedding instance from the given 2-dimensional ``embeddings`` tensor (frozen unless ``freeze=False``).',
    'ferrograd.nn.modules.sparse.Embedding.reset_parameters': 'Re-initialise ``weight`` from ``N(0, 1)`` (the ``padding_idx`` row zeroed).',
    'ferrograd.numel': 'The total number of elements in ``input``.',
    'ferrograd.ones_like': 'A tensor of ones with the size of ``input`` (and its dtype and device unless given).',
    'ferrograd.optim.Optimizer.profile_hook_step': "Wrap an optimizer's ``step`` so that step pre/post hooks run around it.",
    'ferrograd.optim.Optimizer.register_load_state_dict_post_hook': 'Register a hook ``hook(optimizer)`` called after ``load_state_dict()``.',
    'ferrograd.optim.Optimizer.register_load_state_dict_pre_hook': 'Register a hook ``hook(optimizer, state_dict)`` called before ``load_state_dict()``; it may return a replacement.',
    'ferrograd.optim.Optimizer.register_state_dict_post_hook': 'Register a hook ``hook(optimizer, state_dict)`` called after ``state_dict()``; it may return a replacement.',
    'ferrograd.optim.Optimizer.register_state_dict_pre_hook': 'Register a hook ``hook(optimizer)`` called before ``state_dict()``.',
    'ferrograd.optim.lr_scheduler.ReduceLROnPlateau.in_cooldown': '``True`` while the scheduler waits ``cooldown`` epochs after a reduction.',
    'ferrograd.outer': 'The outer product of two 1-d tensors.',
    'ferrograd.rand_like': 'Uniform ``[0, 1)`` random numbers with the size of ``input``.',
    'ferrograd.randint_like': 'Random integers in ``[low, high)`` with the size of ``input`` (``randint_like(x, high)`` too).',
    'ferrograd.randn_like': 'Standard normal random numbers with the size of ``input``.',
    'ferrograd.serialization.StorageType.dtype': 'The dtype of the storage type named in a PyTorch checkpoint.',
    'ferrograd.serialization.clear_safe_globals': 'Forget every global added by ``add_safe_globals``.',
    'ferrograd.serialization.get_safe_globals': 'The globals allowed by ``add_safe_globals`` for ``weights_only`` loading.',
    'ferrograd.set_default_dtype': 'Set the default floating-point dtype (``float32`` or ``float64``).',
    'ferrograd.stack': 'Stack tensors of the same shape along a new dimension ``dim``.',
    'ferrograd.utils.data.dataloader.DataLoader.__iter__': "An iterator over batches (a fresh one, or the persistent workers' one reset).",
    'ferrograd.utils.data.dataloader.DataLoader.__len__': 'The number of batches (for an iterable dataset, an estimate from its length).',
    'ferrograd.utils.data.dataloader.DataLoader.check_worker_number_rationality': 'Warn when ``num_workers`` exceeds the CPUs this process may use (as PyTorch does).',
    'ferrograd.utils.data.dataloader.DataLoader.multiprocessing_context': 'The multiprocessing context the workers start with (``None``: the default).',
    'ferrograd.zeros_like': 'A tensor of zeros with the size of ``input`` (and its dtype and device unless given).',
}
# END GENERATED

_APPLIED = set()


def _lookup(qualname):
    """The (owner, raw attribute) a dotted name points at, or None (module not imported)."""
    parts = qualname.split(".")
    for i in range(len(parts), 0, -1):
        obj = sys.modules.get(".".join(parts[:i]))
        if obj is not None:
            break
    else:
        return None
    owner = None
    for p in parts[i:]:
        owner = obj
        if isinstance(obj, type):
            for klass in obj.__mro__:
                if p in vars(klass):
                    obj = vars(klass)[p]
                    break
            else:
                return None
        else:
            obj = getattr(obj, p, None)
            if obj is None:
                return None
    return owner, obj


def _settable(obj):
    """The object whose ``__doc__`` Python code may set (a function, class or property), or None."""
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    if inspect.isfunction(obj) or isinstance(obj, property):
        return obj
    if isinstance(obj, type) and not (obj.__flags__ & (1 << 8)):  # not an immutable (static/native) type
        return obj
    return None


def _apply(table):
    for qualname, doc in table.items():
        found = _lookup(qualname)
        if found is None:
            continue
        target = _settable(found[1])
        if target is None or (target.__doc__ or "").strip():
            continue
        try:
            target.__doc__ = doc
        except (AttributeError, TypeError):
            continue
        _APPLIED.add(qualname)


def _install():
    _apply(_FROM_STUBS)
    _apply(_HERE)


# ---- the generator (source checkouts only) ------------------------------------------------------------
def _stub_docs():
    """``{qualified name: docstring}`` for every documented definition in the stubs."""
    import ast
    import pathlib

    root = pathlib.Path(__file__).resolve().parent
    docs = {}
    for path in sorted(root.rglob("*.pyi")):
        rel = path.relative_to(root.parent).with_suffix("")
        mod = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        tree = ast.parse(path.read_text())

        def visit(body, prefix):
            for node in body:
                if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                    name = prefix + "." + node.name
                    doc = ast.get_docstring(node)
                    if doc and name not in docs:
                        docs[name] = doc
                    if isinstance(node, ast.ClassDef):
                        visit(node.body, name)

        visit(tree.body, mod)
    return docs


def _generated_table():
    """The entries of ``_FROM_STUBS``: stub docstrings of Python objects without their own."""
    import importlib
    import pkgutil

    import ferrograd

    for m in pkgutil.walk_packages(ferrograd.__path__, "ferrograd."):
        if not any(p.startswith("_") for p in m.name.split(".")[1:]):
            try:
                importlib.import_module(m.name)
            except ImportError:  # an optional dependency (mpi4py, ...) is missing
                pass
    applied = importlib.import_module("ferrograd._docs")._APPLIED  # this file may run as __main__
    table = {}
    for qualname, doc in sorted(_stub_docs().items()):
        found = _lookup(qualname)
        if found is None:
            continue
        target = _settable(found[1])
        if target is None:
            continue
        if (target.__doc__ or "").strip() and qualname not in applied:
            continue  # documented in its source
        table[qualname] = doc
    return table


def _render(table):
    lines = ["_FROM_STUBS = {"]
    lines += [f"    {k!r}: {v!r}," for k, v in table.items()]
    lines.append("}")
    return "\n".join(lines)


def _write():
    import pathlib

    path = pathlib.Path(__file__)
    text = path.read_text()
    head, rest = text.split("# BEGIN GENERATED\n", 1)
    _, tail = rest.split("# END GENERATED\n", 1)
    path.write_text(head + "# BEGIN GENERATED\n" + _render(_generated_table()) + "\n# END GENERATED\n" + tail)


_install()
