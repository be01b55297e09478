"""``torch.nn.parallel.DistributedDataParallel`` on ferrograd's MPI process groups.

At wrap time the parameters and buffers are broadcast from rank 0. The parameters that require a
gradient are grouped into buckets of at most ``bucket_cap_mb`` (one dtype per bucket) in reverse
registration order -- roughly the order backward produces their gradients -- the first bucket
capped at 1 MiB when the default cap is used, so that communication starts early. A
post-accumulate-grad hook on every parameter copies the new gradient into its bucket's flat
buffer; when a bucket's last gradient has arrived, a non-blocking all-reduce (``MPI_Iallreduce``)
of the bucket is started, in bucket order on every rank, so it runs while backward goes on.
When the last bucket has been started (in the hook of the last gradient, before ``backward()``
returns) all of them are waited for, divided by the world size and copied back into ``.grad``.
"""

import contextlib
import dataclasses
import warnings
import weakref

import numpy as np

import ferrograd as torch

from ... import distributed as dist
from ...distributed import distributed_c10d as c10d
from ..modules.module import Module

__all__ = ["DistributedDataParallel"]

_MB = 1024 * 1024
_DEFAULT_BUCKET_CAP_MB = 25
_DEFAULT_FIRST_BUCKET_BYTES = 1 * _MB


def _find_tensors(obj):
    """The tensors in a forward's output: nested lists, tuples, dicts and dataclasses."""
    if isinstance(obj, torch.Tensor):
        return [obj]
    if isinstance(obj, (list, tuple)):
        return [t for o in obj for t in _find_tensors(o)]
    if isinstance(obj, dict):
        return [t for o in obj.values() for t in _find_tensors(o)]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return [t for f in dataclasses.fields(obj) for t in _find_tensors(getattr(obj, f.name))]
    return []


def _compute_bucket_assignment_by_size(params, limits):
    """Indices (into ``params``) per bucket, walking ``params`` in the given order: a bucket of a
    dtype closes once it holds ``limits[k]`` bytes, ``k`` advancing per dtype up to the last limit."""
    result, open_buckets, limit_pos = [], {}, {}
    for i, p in enumerate(params):
        key = p.dtype
        bucket = open_buckets.setdefault(key, [[], 0])
        bucket[0].append(i)
        bucket[1] += p.numel() * p.element_size()
        pos = limit_pos.setdefault(key, 0)
        if bucket[1] >= limits[pos]:
            result.append(bucket[0])
            del open_buckets[key]
            limit_pos[key] = min(pos + 1, len(limits) - 1)
    result.extend(b[0] for b in open_buckets.values() if b[0])
    result.sort(key=min)
    return result


class _Bucket:
    def __init__(self, index, param_indices, params):
        self.index = index
        self.param_indices = param_indices
        self.offsets, total = [], 0
        for i in param_indices:
            self.offsets.append(total)
            total += params[i].numel()
        dtype = params[param_indices[0]].detach().numpy().dtype
        self.buffer = np.zeros(total, dtype=dtype)
        self.pending = len(param_indices)
        self.request = None

    def slot(self, k, params):
        off = self.offsets[k]
        return self.buffer[off:off + params[self.param_indices[k]].numel()]


class _Reducer:
    """The per-iteration bookkeeping of DDP's gradient all-reduce (PyTorch's ``Reducer``)."""

    def __init__(self, params, process_group, bucket_limits, find_unused_parameters):
        self.params = params
        self.pg = process_group
        self.world_size = process_group.size()
        self.find_unused_parameters = find_unused_parameters
        order = list(range(len(params)))[::-1]          # reverse registration order
        assignment = _compute_bucket_assignment_by_size([params[i] for i in order], bucket_limits)
        self.buckets = [_Bucket(b, [order[j] for j in idx], params) for b, idx in enumerate(assignment)]
        self.locate = {}
        for bucket in self.buckets:
            for k, i in enumerate(bucket.param_indices):
                self.locate[i] = (bucket, k)
        self.expect_hooks = False
        self.require_finalize = False
        self.marked = np.zeros(len(params), dtype=bool)
        self.local_used = np.zeros(len(params), dtype=np.int32)
        self.unused = []
        self.has_marked_unused = False
        self.next_bucket = 0
        self.num_iterations = 0
        self.launch_log = []         # (bucket index, hooks fired so far) per launch, last iteration
        self.hooks_fired = 0
        ref = weakref.ref(self)
        self.handles = [p.register_post_accumulate_grad_hook(self._make_hook(ref, i)) for i, p in enumerate(params)]

    @staticmethod
    def _make_hook(ref, index):
        def hook(param):
            reducer = ref()
            if reducer is not None and reducer.expect_hooks:
                reducer._autograd_hook(index)
        return hook

    # -- forward side

    def prepare_for_forward(self):
        self.num_iterations += 1

    def prepare_for_backward(self, outputs):
        self.ensure_prior_reduction_finished()
        self.expect_hooks = True
        self.require_finalize = True
        self.marked[:] = False
        self.local_used[:] = 0
        self.has_marked_unused = False
        self.next_bucket = 0
        self.hooks_fired = 0
        self.launch_log = []
        for bucket in self.buckets:
            bucket.pending = len(bucket.param_indices)
            bucket.request = None
        self.unused = []
        if self.find_unused_parameters:
            self.unused = self._unused_parameters(outputs)

    def _unused_parameters(self, outputs):
        """Parameters not reached walking the autograd graph back from ``outputs``."""
        ids = {id(p): i for i, p in enumerate(self.params)}
        seen, reached = {}, set()    # seen keeps the node objects alive, so that their ids stay unique
        stack = [t.grad_fn for t in outputs if t.grad_fn is not None]
        for t in outputs:
            if t.grad_fn is None and id(t) in ids:
                reached.add(ids[id(t)])
        while stack:
            fn = stack.pop()
            if id(fn) in seen:
                continue
            seen[id(fn)] = fn
            var = getattr(fn, "variable", None)
            if var is not None and id(var) in ids:
                reached.add(ids[id(var)])
            for nxt, _ in fn.next_functions:
                if nxt is not None and id(nxt) not in seen:
                    stack.append(nxt)
        return [i for i in range(len(self.params)) if i not in reached]

    def ensure_prior_reduction_finished(self):
        if not self.require_finalize:
            return
        unmarked = [i for i in range(len(self.params)) if not self.marked[i]]
        msg = ("Expected to have finished reduction in the prior iteration before starting a new one. "
               "This error indicates that your module has parameters that were not used in producing loss. ")
        outputs_msg = "making sure all `forward` function outputs participate in calculating loss. "
        bug_msg = ("\nIf you already have done the above, then the distributed data parallel module wasn't able "
                   "to locate the output tensors in the return value of your module's `forward` function. Please "
                   "include the loss function and the structure of the return value of `forward` of your module "
                   "when reporting this issue (e.g. list, dict, iterable).")
        if not self.find_unused_parameters:
            msg += ("You can enable unused parameter detection by passing the keyword argument "
                    "`find_unused_parameters=True` to `torch.nn.parallel.DistributedDataParallel`, and by \n")
        else:
            msg += ("Since `find_unused_parameters=True` is enabled, this likely  means that not all `forward` "
                    "outputs participate in computing loss. You can fix this by ")
        msg += outputs_msg + bug_msg
        msg += (f"\nParameter indices which did not receive grad for rank {self.pg.rank()}: "
                + " ".join(str(i) for i in unmarked))
        raise RuntimeError(msg)

    # -- backward side

    def _autograd_hook(self, index):
        self.hooks_fired += 1
        if not self.has_marked_unused:
            self.has_marked_unused = True
            for i in self.unused:
                self._mark_ready(i, used=False)
        self._mark_ready(index, used=True)
        self._progress()

    def _mark_ready(self, index, used):
        if self.marked[index]:
            raise RuntimeError(
                "Expected to mark a variable ready only once. This error is caused by one of the following "
                "reasons: 1) Use of a module parameter outside the `forward` function. Please make sure model "
                "parameters are not shared across multiple concurrent forward-backward passes. 2) Reused "
                "parameters in multiple reentrant backward passes. For example, if you use multiple `checkpoint` "
                "functions to wrap the same part of your model, it would result in the same set of parameters "
                "been used by different reentrant backward passes multiple times, and hence marking a variable "
                "ready multiple times. DDP does not support such use cases in default.\n"
                f"Parameter at index {index} has been marked as ready twice. This means that multiple autograd "
                "engine  hooks have fired for this particular parameter during this iteration.")
        self.marked[index] = True
        bucket, k = self.locate[index]
        slot = bucket.slot(k, self.params)
        grad = self.params[index].grad if used else None
        if grad is None:
            slot.fill(0)
        else:
            self.local_used[index] = 1
            np.copyto(slot, c10d._buffer(grad.detach().contiguous()))
        bucket.pending -= 1
        if bucket.pending == 0:
            self._launch_ready_buckets()

    def _launch_ready_buckets(self):
        """Start buckets in index order (the same collective order on every rank)."""
        MPI = c10d._mpi()
        while self.next_bucket < len(self.buckets) and self.buckets[self.next_bucket].pending == 0:
            bucket = self.buckets[self.next_bucket]
            bucket.request = self.pg._comm.Iallreduce(MPI.IN_PLACE, bucket.buffer, op=MPI.SUM)
            self.launch_log.append((bucket.index, self.hooks_fired))
            self.next_bucket += 1
        if self.next_bucket == len(self.buckets):
            self._finalize()

    def _progress(self):
        """Poke MPI so that started all-reduces advance while backward computes."""
        live = [b.request for b in self.buckets[:self.next_bucket] if b.request is not None]
        if live and self.next_bucket < len(self.buckets):
            c10d._mpi().Request.Testall(live)

    def _finalize(self):
        MPI = c10d._mpi()
        MPI.Request.Waitall([b.request for b in self.buckets])
        globally_used = None
        if self.find_unused_parameters:
            globally_used = self.local_used.copy()
            self.pg._comm.Allreduce(MPI.IN_PLACE, globally_used, op=MPI.MAX)
        with torch.no_grad():
            for bucket in self.buckets:
                c10d._divide_in_place(bucket.buffer, self.world_size)
                for k, i in enumerate(bucket.param_indices):
                    p = self.params[i]
                    if globally_used is not None and not globally_used[i]:
                        continue   # unused on every rank: .grad stays as it was (None), as in PyTorch
                    value = torch.from_numpy(bucket.slot(k, self.params)).view(p.shape)
                    if p.grad is None:
                        p.grad = value.clone()
                    else:
                        p.grad.copy_(value)
        self.expect_hooks = False
        self.require_finalize = False


class DistributedDataParallel(Module):
    """Data parallelism across processes: wrap the model, run forward and backward as usual; the
    gradients of the parameters are averaged over the process group during backward.

    Supported arguments: ``process_group``, ``bucket_cap_mb`` (default 25), ``find_unused_parameters``,
    ``broadcast_buffers`` / ``forward_sync_buffers``, ``init_sync``, and ``device_ids`` /
    ``output_device`` as None (CPU modules)."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0, broadcast_buffers=None,
                 init_sync=True, process_group=None, bucket_cap_mb=None, find_unused_parameters=False,
                 forward_sync_buffers=None):
        super().__init__()
        self.process_group = c10d._get_default_group() if process_group is None else process_group
        self.parameters_to_ignore = set(getattr(module, "_ddp_params_and_buffers_to_ignore", ()))
        self._module_parameters = [p for n, p in module.named_parameters() if n not in self.parameters_to_ignore]
        if not any(p.requires_grad for p in self._module_parameters):
            raise RuntimeError("DistributedDataParallel is not needed when a module doesn't have any parameter "
                               "that requires a gradient.")
        if device_ids is not None and len(device_ids) > 1:
            raise ValueError("device_ids can only be None or contain a single element.")
        device_types = {p.device.type for p in self._module_parameters}
        if len(device_types) != 1:
            raise ValueError("DistributedDataParallel's input module must be on the same type of devices, but "
                             f"input module parameters locate in {device_types}.")
        self.device_type = next(iter(device_types))
        if self.device_type != "cpu":
            raise RuntimeError("ferrograd's DistributedDataParallel runs on MPI with CPU tensors; a module on "
                               f"'{self.device_type}' needs a NCCL backend, which ferrograd does not have yet")
        if device_ids or output_device:
            devices = {p.device for p in self._module_parameters}
            raise ValueError("DistributedDataParallel device_ids and output_device arguments only work with "
                             "single-device/multiple-device GPU modules or CPU modules, but got device_ids "
                             f"{device_ids}, output_device {output_device}, and module parameters {devices}.")
        self.device_ids = None
        self.output_device = None
        self.dim = dim
        self.module = module
        self.device = self._module_parameters[0].device
        if broadcast_buffers is not None:
            if forward_sync_buffers is not None:
                warnings.warn("Both `broadcast_buffers` and `forward_sync_buffers` were specified. "
                              "`broadcast_buffers` is deprecated and its value is ignored when "
                              "`forward_sync_buffers` is provided.", FutureWarning, stacklevel=2)
            else:
                warnings.warn("`broadcast_buffers` is deprecated. Use `forward_sync_buffers` instead. IMPORTANT: "
                              "unlike `broadcast_buffers=False`, `forward_sync_buffers=False` still syncs buffers "
                              "at init. If you rely on buffers NOT being synced at init (e.g. rank-local buffers), "
                              "keep using `broadcast_buffers=False` until `init_sync_buffers` is available.",
                              FutureWarning, stacklevel=2)
        if forward_sync_buffers is not None:
            self.forward_sync_buffers = forward_sync_buffers
            init_sync_buffers = True
        else:
            self.forward_sync_buffers = broadcast_buffers if broadcast_buffers is not None else True
            init_sync_buffers = self.forward_sync_buffers
        self.find_unused_parameters = find_unused_parameters
        self.require_backward_grad_sync = True
        self.require_forward_param_sync = True
        default_cap = bucket_cap_mb is None
        if default_cap:
            bucket_cap_mb = _DEFAULT_BUCKET_CAP_MB
        self.bucket_bytes_cap = int(bucket_cap_mb * _MB)
        first = _DEFAULT_FIRST_BUCKET_BYTES if default_cap else self.bucket_bytes_cap
        limits = [first, self.bucket_bytes_cap] if first < self.bucket_bytes_cap else [self.bucket_bytes_cap]
        params = [p for p in self._module_parameters if p.requires_grad]
        if init_sync:
            self._verify_param_shape_across_processes(params)
            self._sync_module_states(init_sync_buffers)
        self.reducer = _Reducer(params, self.process_group, limits, find_unused_parameters)

    @property
    def broadcast_buffers(self):
        return self.forward_sync_buffers

    @broadcast_buffers.setter
    def broadcast_buffers(self, value):
        self.forward_sync_buffers = value

    # -- state sync

    def _module_buffers(self):
        return [b for n, b in self.module.named_buffers() if n not in self.parameters_to_ignore]

    def _verify_param_shape_across_processes(self, params):
        """Every rank must wrap the same model: compare parameter counts and shapes with rank 0."""
        meta = [len(params)] + [d for p in params for d in (p.dim(), *p.shape)]
        mine = np.array(meta, dtype=np.int64)
        sizes = np.empty(self.process_group.size(), dtype=np.int64)
        comm = self.process_group._comm
        comm.Allgather(np.array([mine.size], dtype=np.int64), sizes)
        reference = np.empty(int(sizes[0]), dtype=np.int64)
        if self.process_group.rank() == 0:
            reference[:] = mine
        comm.Bcast(reference, root=0)
        if reference[0] != mine[0]:
            raise RuntimeError(f"DDP expects same model across all ranks, but Rank {self.process_group.rank()} has "
                               f"{mine[0]} params, while rank 0 has inconsistent {reference[0]} params.")
        if mine.size != reference.size or not np.array_equal(mine, reference):
            raise RuntimeError(f"DDP expects same model across all ranks: the parameter shapes on rank "
                               f"{self.process_group.rank()} do not match those on rank 0.")

    def _broadcast_from_rank0(self, tensors):
        comm = self.process_group._comm
        for t in tensors:
            if t.numel():
                comm.Bcast(c10d._buffer(t), root=0)

    def _sync_module_states(self, sync_buffers):
        tensors = [p.detach() for p in self._module_parameters]
        if sync_buffers:
            tensors += [b.detach() for b in self._module_buffers()]
        self._broadcast_from_rank0(tensors)

    # -- training

    def forward(self, *inputs, **kwargs):
        grad_sync = torch.is_grad_enabled() and self.require_backward_grad_sync
        if grad_sync:
            self.reducer.prepare_for_forward()
        if (self.require_forward_param_sync and self.forward_sync_buffers
                and self.process_group.size() > 1):
            buffers = self._module_buffers()
            if buffers:
                self._broadcast_from_rank0([b.detach() for b in buffers])
        output = self.module(*inputs, **kwargs)
        if grad_sync:
            self.require_forward_param_sync = True
            self.reducer.prepare_for_backward(_find_tensors(output) if self.find_unused_parameters else [])
        else:
            self.require_forward_param_sync = False
        return output

    @contextlib.contextmanager
    def no_sync(self):
        """Gradients accumulate locally inside; the first synchronised forward-backward after it
        averages the accumulated gradients. Include the forward pass in the context."""
        old = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = old
