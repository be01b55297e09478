"""``torch.autograd.profiler``: CPU time per op and per backward node, recorded by the Rust
core (kernels of the backend seam as ``aten::<op>``, backward nodes by their grad_fn name,
``record_function`` ranges by their name).

    with torch.autograd.profiler.profile() as prof:
        loss = model(x).sum(); loss.backward()
    print(prof.key_averages().table(sort_by="self_cpu_time_total"))
    prof.export_chrome_trace("trace.json")

Times are wall-clock microseconds on the thread that ran the event; an event's self time is
its time minus that of the events nested in it on the same thread. Off, a recording site costs
one atomic load.
"""

import bisect
import enum
import json
import threading
from collections import defaultdict, namedtuple
from warnings import warn

from .. import _C

class ProfilerActivity(enum.Enum):
    """What to record: CPU time (CUDA kernels are not timed by ferrograd)."""

    CPU = 0
    CUDA = 1


def kineto_available():
    """Whether PyTorch's Kineto tracer is present (it is not: ferrograd records with its own)."""
    return False


MEMORY_EVENT_NAME = "[memory]"
OUT_OF_MEMORY_EVENT_NAME = "[OutOfMemory]"


class ProfilerState(enum.Enum):
    """The profiler backends of PyTorch's ``ProfilerConfig`` (ferrograd's recorder is the CPU one)."""

    Disabled = 0
    CPU = 1
    CUDA = 2
    NVTX = 3
    ITT = 4
    PRIVATEUSE1 = 5
    KINETO = 6
    KINETO_GPU_FALLBACK = 7
    KINETO_PRIVATEUSE1_FALLBACK = 8
    KINETO_PRIVATEUSE1 = 9

    def __int__(self):
        return self.value


class ProfilerConfig:
    """The settings of a profiling session, as PyTorch's ``ProfilerConfig`` holds them."""

    def __init__(self, state, report_input_shapes, profile_memory, with_stack, with_flops, with_modules,
                 experimental_config=None, trace_id=""):
        if not isinstance(state, ProfilerState):
            raise TypeError(f"__init__(): incompatible constructor arguments; state must be a "
                            f"ProfilerState, got {type(state).__name__}")
        self.state = state
        self.report_input_shapes = bool(report_input_shapes)
        self.profile_memory = bool(profile_memory)
        self.with_stack = bool(with_stack)
        self.with_flops = bool(with_flops)
        self.with_modules = bool(with_modules)
        self.experimental_config = experimental_config
        self.trace_id = trace_id


class ProfilerEvent:
    """One recorded event (name, thread, start and duration in µs, input shapes), the fields
    of PyTorch's legacy ``ProfilerEvent`` that ferrograd's recorder has."""

    def __init__(self, name, thread_id=0, start_us=0.0, cpu_elapsed_us=0.0, shapes=(), sequence_nr=-1,
                 kind="push", scope=0, fwd_thread_id=0):
        self._name = name
        self.thread_id = thread_id
        self.start_us = lambda: start_us
        self._cpu_elapsed_us = cpu_elapsed_us
        self.shapes = [list(s) for s in shapes]
        self.sequence_nr = sequence_nr
        self._kind = kind
        self.scope = scope
        self.fwd_thread_id = fwd_thread_id
        self.device = lambda: -1
        self.has_cuda = lambda: False
        self.is_async = lambda: False
        self.is_remote = lambda: False
        self.node_id = lambda: -1
        self.correlation_id = lambda: 0
        self.handle = lambda: 0
        self.flops = lambda: 0
        self.cpu_memory_usage = lambda: 0
        self.cuda_memory_usage = lambda: 0
        self.stack = []

    def name(self):
        return self._name

    def kind(self):
        return self._kind

    def cpu_elapsed_us(self, other=None):
        return self._cpu_elapsed_us if other is None else other.start_us() - self.start_us()

    def cuda_elapsed_us(self, other=None):
        return 0.0

__all__ = ["profile", "record_function", "emit_itt", "emit_nvtx", "load_nvprof", "EnforceUnique",
           "parse_nvprof_trace", "KinetoStepTracker", "EventList", "FunctionEvent", "MemRecordsAcc"]


class DeviceType(enum.Enum):
    """The device an event ran on (``torch.autograd.DeviceType``, c10's device types with
    their numbers). ``int(DeviceType.CUDA) == 1``; members do not compare equal to ints."""

    CPU = 0
    CUDA = 1
    MKLDNN = 2
    OPENGL = 3
    OPENCL = 4
    IDEEP = 5
    HIP = 6
    FPGA = 7
    MAIA = 8
    XLA = 9
    Vulkan = 10
    Metal = 11
    XPU = 12
    MPS = 13
    MTIA = 19
    Meta = 14
    HPU = 15
    VE = 16
    Lazy = 17
    IPU = 18
    PrivateUse1 = 20

    def __int__(self):
        return self.value

    def __index__(self):
        return self.value

    def __hash__(self):
        return self.value


class Interval(tuple):
    """An event's ``time_range``: ``start``/``end`` in microseconds (also a 2-tuple)."""

    __slots__ = ()

    def __new__(cls, start, end):
        return tuple.__new__(cls, (start, end))

    @property
    def start(self):
        """Start time (microseconds)."""
        return self[0]

    @property
    def end(self):
        """End time (microseconds)."""
        return self[1]

    def elapsed_us(self):
        """``end - start``."""
        return self[1] - self[0]

    def __repr__(self):
        return f"Interval(start={self[0]!r}, end={self[1]!r})"


Kernel = namedtuple("Kernel", ["name", "device", "duration"])
Kernel.__doc__ = """A device kernel launched by an event: ``(name, device, duration)``."""


class FunctionEvent:
    """One recorded event (times in microseconds)."""

    def __init__(self, id, name, thread, start_us, end_us, kind="op", input_shapes=None, *, node_id=-1,
                 device_type=DeviceType.CPU):
        self.id = id
        self.node_id = node_id
        self.name = name
        self.thread = thread
        self.time_range = Interval(start_us, end_us)
        self.kind = kind
        self.input_shapes = input_shapes or []
        self.kernels = []
        self.device_type = device_type
        self.cpu_children = []
        self.cpu_parent = None
        self.count = 1

    def append_kernel(self, name, device, duration):
        """Record a device kernel launched by this (CPU) event."""
        if self.device_type != DeviceType.CPU:
            raise AssertionError("Expected device_type to be CPU")
        self.kernels.append(Kernel(name, device, duration))

    @property
    def key(self):
        """The name events are grouped by."""
        return self.name

    @property
    def cpu_time_total(self):
        """Wall-clock time of the event (microseconds)."""
        return self.time_range[1] - self.time_range[0]

    @property
    def self_cpu_time_total(self):
        """Time of the event minus the events nested in it on its thread."""
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    @property
    def cpu_time(self):
        """Same as `cpu_time_total` for a single event."""
        return self.cpu_time_total

    def __repr__(self):
        return (f"<FunctionEvent id={self.id} name={self.name} thread={self.thread} "
                f"cpu_time={_fmt_us(self.cpu_time_total)} self_cpu_time={_fmt_us(self.self_cpu_time_total)}>")


class FunctionEventAvg:
    """Events with one key added up (``key_averages``)."""

    def __init__(self, key, input_shapes=None):
        self.key = key
        self.input_shapes = input_shapes
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0

    def add(self, ev):
        """Add one event (or average) into this one."""
        self.count += ev.count
        self.cpu_time_total += ev.cpu_time_total
        self.self_cpu_time_total += ev.self_cpu_time_total
        return self

    @property
    def cpu_time(self):
        """Average total time per call (microseconds)."""
        return self.cpu_time_total / self.count if self.count else 0.0

    @property
    def self_cpu_time(self):
        """Average self time per call (microseconds)."""
        return self.self_cpu_time_total / self.count if self.count else 0.0

    def __repr__(self):
        return (f"<FunctionEventAvg key={self.key} self_cpu_time={_fmt_us(self.self_cpu_time_total)} "
                f"cpu_time={_fmt_us(self.cpu_time_total)} count={self.count}>")


def _fmt_us(us):
    """torch's time format: us below a millisecond, ms below a second, s above."""
    if us >= 1e6:
        return f"{us / 1e6:.3f}s"
    if us >= 1e3:
        return f"{us / 1e3:.3f}ms"
    return f"{us:.3f}us"


_SORT_KEYS = {
    "cpu_time": "cpu_time", "cpu_time_total": "cpu_time_total", "self_cpu_time_total": "self_cpu_time_total",
    "count": "count",
}


class EventList(list):
    """A list of events with torch's reports."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)

    def _build_tree(self):
        """Nest events by time on each thread: children are the events inside a parent."""
        by_thread = defaultdict(list)
        for ev in self:
            by_thread[ev.thread].append(ev)
        for evs in by_thread.values():
            evs.sort(key=lambda e: (e.time_range[0], -e.time_range[1]))
            stack = []
            for ev in evs:
                while stack and stack[-1].time_range[1] <= ev.time_range[0]:
                    stack.pop()
                if stack and ev.time_range[1] <= stack[-1].time_range[1]:
                    ev.cpu_parent = stack[-1]
                    stack[-1].cpu_children.append(ev)
                stack.append(ev)

    @property
    def self_cpu_time_total(self):
        """Sum of the events' self CPU time (microseconds)."""
        return sum(ev.self_cpu_time_total for ev in self)

    def key_averages(self, group_by_input_shapes=False):
        """One entry per event name (and input shapes, when grouped by them)."""
        avgs = {}
        for ev in self:
            key = (ev.key, str(ev.input_shapes)) if group_by_input_shapes else ev.key
            if key not in avgs:
                avgs[key] = FunctionEventAvg(ev.key, ev.input_shapes if group_by_input_shapes else None)
            avgs[key].add(ev)
        return EventList(avgs.values())

    def total_average(self):
        """All events added up into one entry."""
        total = FunctionEventAvg("Total")
        for ev in self:
            total.add(ev)
        return total

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, max_name_column_width=55,
              max_shapes_column_width=80, header=None, top_level_events_only=False):
        """The text table torch prints: name, self CPU, CPU total, average, calls."""
        rows = list(self)
        if top_level_events_only:
            rows = [r for r in rows if getattr(r, "cpu_parent", None) is None]
        if sort_by is not None:
            attr = _SORT_KEYS.get(sort_by)
            if attr is None:
                raise AttributeError(f"'FunctionEventAvg' object has no attribute '{sort_by}'")
            rows.sort(key=lambda r: getattr(r, attr), reverse=True)
        if row_limit is not None and row_limit > 0:
            rows = rows[:row_limit]
        self_total = sum(getattr(r, "self_cpu_time_total", 0.0) for r in self) or 1.0
        shapes = any(getattr(r, "input_shapes", None) for r in rows)
        name_w = min(max([len("Name")] + [len(r.key) for r in rows]) + 4, max_name_column_width)
        cols = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "# of Calls"]
        widths = [name_w] + [12] * 6
        if shapes:
            cols.append("Input Shapes")
            widths.append(min(max([12] + [len(str(r.input_shapes)) for r in rows]) + 2, max_shapes_column_width))
        sep = "  ".join("-" * w for w in widths) + "  "
        line = lambda vals: "  ".join(str(v)[:w].rjust(w) for v, w in zip(vals, widths)) + "  "  # noqa: E731
        out = []
        if header:
            out += ["=" * len(sep), header]
        out += [sep, line(cols), sep]
        for r in rows:
            vals = [r.key, f"{100 * r.self_cpu_time_total / self_total:.2f}%", _fmt_us(r.self_cpu_time_total),
                    f"{100 * r.cpu_time_total / self_total:.2f}%", _fmt_us(r.cpu_time_total),
                    _fmt_us(r.cpu_time_total / max(r.count, 1)), r.count]
            if shapes:
                vals.append(r.input_shapes)
            out.append(line(vals))
        out.append(sep)
        out.append(f"Self CPU time total: {_fmt_us(sum(getattr(r, 'self_cpu_time_total', 0.0) for r in self))}")
        return "\n".join(out) + "\n"

    def export_chrome_trace(self, path):
        """Write the events as a Chrome trace (chrome://tracing, Perfetto)."""
        events = [{"name": ev.name, "ph": "X", "cat": ev.kind if hasattr(ev, "kind") else "cpu_op",
                   "ts": ev.time_range[0], "dur": ev.cpu_time_total, "pid": 0, "tid": ev.thread,
                   "args": ({"Input Dims": ev.input_shapes} if getattr(ev, "input_shapes", None) else {})}
                  for ev in self if isinstance(ev, FunctionEvent)]
        with open(path, "w") as fh:
            json.dump({"traceEvents": events, "displayTimeUnit": "ms"}, fh)


class profile:
    """Record the CPU time of every op and backward node run inside the block."""

    def __init__(self, enabled=True, *, use_cuda=False, use_device=None, record_shapes=False,
                 with_flops=False, profile_memory=False, with_stack=False, with_modules=False,
                 use_kineto=False, use_cpu=True, experimental_config=None, acc_events=False,
                 custom_trace_id_callback=None):
        if not use_cpu:
            raise ValueError("Device-only events supported only with Kineto (use_kineto=True)")
        if use_cuda or (use_device is not None and use_device != "cpu"):
            raise RuntimeError("ferrograd's profiler records CPU time only; CUDA kernels run asynchronously "
                               "and are not timed (profile with use_cuda=False)")
        if profile_memory or with_flops or with_stack or with_modules:
            raise RuntimeError("ferrograd's profiler records times and input shapes only "
                               "(profile_memory, with_flops, with_stack and with_modules are not recorded)")
        self.enabled = enabled
        self.record_shapes = record_shapes
        self.function_events = None
        self.entered = False

    def __enter__(self):
        if not self.enabled:
            return self
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self._session = _Session(bool(self.record_shapes), exclusive=True)
        self._session.start()
        self.entered = True
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        if not self.enabled:
            return False
        raw = self._session.stop()
        evs = EventList(FunctionEvent(i, name, thread, start / 1e3, end / 1e3, kind, shapes)
                        for i, (name, kind, thread, start, end, shapes) in enumerate(raw))
        evs._build_tree()
        self.function_events = evs
        return False

    def _check_finish(self):
        if self.function_events is None:
            raise RuntimeError("Profiler didn't finish running")

    def events(self):
        """The recorded events (an EventList)."""
        self._check_finish()
        return self.function_events

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        """Events added up per name (and input shapes with `group_by_input_shape=True`)."""
        self._check_finish()
        return self.function_events.key_averages(group_by_input_shape)

    def total_average(self):
        """All events added up into one entry."""
        self._check_finish()
        return self.function_events.total_average()

    @property
    def self_cpu_time_total(self):
        """Sum of every event's self CPU time (microseconds)."""
        self._check_finish()
        return self.function_events.self_cpu_time_total

    def table(self, sort_by=None, row_limit=100, **kwargs):
        """The events as torch's text table (see `EventList.table`)."""
        self._check_finish()
        return self.function_events.table(sort_by=sort_by, row_limit=row_limit, **kwargs)

    def export_chrome_trace(self, path):
        """Write the events as a Chrome trace JSON file."""
        self._check_finish()
        return self.function_events.export_chrome_trace(path)

    def __str__(self):
        self._check_finish()
        return str(self.function_events.table())


# ---- one recorder, several consumers ------------------------------------------------------------
# The core records one session at a time; ``profile`` and ``torch.profiler.ExecutionTraceObserver``
# may run together (as in PyTorch), so each is a consumer of a shared session: when one stops, the
# core's session is closed, its events are handed to every running consumer, and it is reopened
# for the others at once. Ranges open across that instant are recorded when they close.

_sessions_lock = threading.RLock()
_sessions = []


class _Session:
    """One consumer of the core recorder: the events recorded between ``start`` and ``stop``."""

    def __init__(self, record_shapes, exclusive=False):
        self.record_shapes = record_shapes
        self.exclusive = exclusive
        self.raw = []

    def start(self):
        with _sessions_lock:
            if self.exclusive and (any(s.exclusive for s in _sessions) or (not _sessions and _C._profiler_enabled())):
                raise RuntimeError("Profiler is already enabled on this thread")
            if _sessions and self.record_shapes and not any(s.record_shapes for s in _sessions):
                _flush()  # reopen the session recording shapes
                _sessions.append(self)
                _C._profiler_start(True)
                return
            if not _sessions:
                _C._profiler_start(self.record_shapes)
            _sessions.append(self)

    def stop(self):
        """Stop consuming; the ``(name, kind, thread, start_ns, end_ns, shapes)`` tuples recorded
        while this consumer ran, ordered by start time."""
        with _sessions_lock:
            if self not in _sessions:
                return self.raw
            _flush()
            _sessions.remove(self)
            if _sessions:
                _C._profiler_start(any(s.record_shapes for s in _sessions))
        raw = sorted(self.raw, key=lambda e: (e[3], -e[4]))
        if not self.record_shapes:
            raw = [(n, k, t, a, b, []) for (n, k, t, a, b, _) in raw]
        self.raw = []
        return raw


def _flush():
    raw = _C._profiler_stop()
    for s in _sessions:
        s.raw.extend(raw)


class record_function:
    """Label a block (or, as a decorator, a function) in the profile."""

    def __init__(self, name, args=None):
        self.name = name
        self.args = args
        self._id = 0

    def __enter__(self):
        self._id = _C._profiler_range_begin(str(self.name))
        return self

    def __exit__(self, *exc):
        _C._profiler_range_end(self._id)
        self._id = 0
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with record_function(self.name, self.args):
                return fn(*args, **kwargs)

        return wrapper


# ---- NVTX / ITT annotation, nvprof traces --------------------------------------------------------

class _Annotation:
    """The protocol shared by ``emit_itt`` and ``emit_nvtx``: a no-op when disabled, entered
    once only, and ``_start()`` raising since ferrograd's ops emit no such ranges."""

    _kind = ""

    def __init__(self, enabled=True, record_shapes=False):
        self.enabled = enabled
        self.entered = False
        self.record_shapes = record_shapes

    def __enter__(self):
        if not self.enabled:
            return
        if self.entered:
            raise RuntimeError(f"{self._kind} annotation context manager is not reentrant")
        self.entered = True
        self._start()

    def __exit__(self, exc_type, exc_val, exc_tb):
        return False


class emit_itt(_Annotation):
    """Context manager that makes every autograd operation emit an ITT range (for Intel VTune
    Profiler, ``vtune <--vtune-flags> <regular command here>``).

    Args:
        enabled (bool, optional): ``enabled=False`` makes this context manager a no-op.
            Default: ``True``.
        record_shapes (bool, optional): append the input sizes to each range. Default: ``False``.

    ferrograd has no ITT instrumentation: entering an enabled ``emit_itt`` raises PyTorch's
    error for a build without ITT (``RuntimeError: Can't use ITT profiler - PyTorch was compiled
    without ITT``). As in PyTorch, an instance can be entered once only.
    """

    _kind = "ITT"

    def _start(self):
        raise RuntimeError("Can't use ITT profiler - PyTorch was compiled without ITT")


class emit_nvtx(_Annotation):
    """Context manager that makes every autograd operation emit an NVTX range (for nvprof /
    Nsight Systems; load an nvprof trace with :func:`load_nvprof`).

    Args:
        enabled (bool, optional): ``enabled=False`` makes this context manager a no-op.
            Default: ``True``.
        record_shapes (bool, optional): append the input sizes to each range. Default: ``False``.

    As in PyTorch, entering it synchronizes the CUDA device first, so without a usable GPU it
    raises the CUDA error (here ferrograd's ``torch.cuda.synchronize()`` error). ferrograd's ops
    emit no NVTX ranges: with a GPU, entering an enabled ``emit_nvtx`` raises
    ``RuntimeError`` rather than profile nothing. An instance can be entered once only.
    """

    _kind = "NVTX"

    def _start(self):
        from .. import cuda

        cuda.synchronize()
        raise RuntimeError("Can't use NVTX profiler - ferrograd's operations emit no NVTX ranges")


def load_nvprof(path):
    """Open an nvprof trace file and parses autograd annotations.

    Args:
        path (str): path to nvprof trace
    """
    return EventList(parse_nvprof_trace(path))


class EnforceUnique:
    """Raises an error if a key is seen more than once."""

    def __init__(self):
        self.seen = set()

    def see(self, *key):
        """Observe a key and raise an error if it is seen multiple times."""
        if key in self.seen:
            raise RuntimeError("duplicate key: " + str(key))
        self.seen.add(key)


_cxa_demangle = None


def _demangle(name):
    """``torch._C._demangle``: the C++ ABI demangling of ``name`` (``_Z3fooi`` -> ``foo(int)``),
    or ``name`` itself when it is not a mangled name (or no C++ runtime is found)."""
    global _cxa_demangle
    import ctypes
    import ctypes.util

    if _cxa_demangle is None:
        try:
            lib = ctypes.CDLL(ctypes.util.find_library("stdc++") or "libstdc++.so.6")
            fn = lib.__cxa_demangle
            fn.restype = ctypes.c_void_p
            fn.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
            libc = ctypes.CDLL(ctypes.util.find_library("c"))
            libc.free.argtypes = [ctypes.c_void_p]
            _cxa_demangle = (fn, libc.free)
        except (OSError, AttributeError, TypeError):
            _cxa_demangle = False
    if not _cxa_demangle:
        return name
    fn, free = _cxa_demangle
    status = ctypes.c_int(0)
    ptr = fn(name.encode(), None, None, ctypes.byref(status))
    if status.value != 0 or not ptr:
        return name
    try:
        return ctypes.string_at(ptr).decode(errors="replace")
    finally:
        free(ptr)


def parse_nvprof_trace(path):
    """Parse an nvprof trace (SQLite) into FunctionEvents: one per NVTX range (the autograd
    annotations of ``emit_nvtx``), each with the CUDA kernels launched inside it, sorted by
    start time."""
    import sqlite3

    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row

    # Parse strings table
    strings = {}
    for r in conn.execute("SELECT _id_ as id, value FROM StringTable"):
        strings[r["id"]] = _demangle(r["value"])

    # First, find all functions and create FunctionEvents for them
    marker_query = """
    SELECT
        start.id AS marker_id, start.name, start.timestamp AS start_time, end.timestamp AS end_time
    FROM
        CUPTI_ACTIVITY_KIND_MARKER AS start INNER JOIN CUPTI_ACTIVITY_KIND_MARKER AS end
        ON start.id = end.id
    WHERE
        start.name != 0 AND end.name = 0
    """
    functions = []
    functions_map = {}
    unique = EnforceUnique()
    for row in conn.execute(marker_query):
        unique.see(row["marker_id"])
        evt = FunctionEvent(id=row["marker_id"], node_id=0, name=strings[row["name"]],
                            start_us=row["start_time"], end_us=row["end_time"], thread=0)
        functions.append(evt)
        functions_map[evt.id] = evt

    # Now, correlate all kernels with FunctionEvents
    kernel_query = """
    SELECT
        start.id AS marker_id, start.name, start.timestamp, end.timestamp,
        runtime._id_ AS runtime_id, runtime.cbid, runtime.start AS runtime_start, runtime.end AS runtime_end,
        kernel.start AS kernel_start, kernel.end AS kernel_end, kernel.name AS kernel_name
    FROM
        CUPTI_ACTIVITY_KIND_MARKER AS start
        INNER JOIN CUPTI_ACTIVITY_KIND_MARKER AS end
            ON start.id = end.id
        INNER JOIN CUPTI_ACTIVITY_KIND_RUNTIME as runtime
            ON (start.timestamp < runtime.start AND runtime.end < end.timestamp)
        INNER JOIN CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL AS kernel
            ON kernel.correlationId = runtime.correlationId
    """
    unique = EnforceUnique()
    for row in conn.execute(kernel_query):
        unique.see(row["marker_id"], row["runtime_id"])
        # 211 is cudaKernelLaunch for cuda >= 9.2
        if row["cbid"] != 211:
            raise AssertionError(f"Expected cbid to be 211, but got {row['cbid']}")
        evt = functions_map[row["marker_id"]]
        evt.append_kernel(row["kernel_name"], 0, row["kernel_end"] - row["kernel_start"])

    functions.sort(key=lambda evt: evt.time_range.start)
    return functions


class MemRecordsAcc:
    """Acceleration structure for accessing mem_records in interval."""

    def __init__(self, mem_records):
        self._mem_records = mem_records
        self._start_nses = []
        self._indices = []
        if len(mem_records) > 0:
            tmp = sorted([(r[0].start_ns(), i) for i, r in enumerate(mem_records)])
            self._start_nses, self._indices = zip(*tmp)

    def in_interval(self, start_ns, end_ns):
        """Return all records in the given interval."""
        start_idx = bisect.bisect_left(self._start_nses, start_ns)
        end_idx = bisect.bisect_right(self._start_nses, end_ns)
        for i in range(start_idx, end_idx):
            yield self._mem_records[self._indices[i]]


def _kineto_step():
    """Tell the trace collector a step happened. PyTorch forwards it to Kineto (for on-demand
    tracing); ferrograd has no Kineto, so nothing listens."""


class KinetoStepTracker:
    """Provides an abstraction for incrementing the step count globally.

    Several requesters (the profiler's ``step()``, each optimizer) may each count steps; the
    global step count is the max over them, and the trace collector is told of a step only when
    that max goes up (``{"ProfilerStep": 100, "Optimizer1Step": 101}`` -> step 101).

    ferrograd has no Kineto: the counts are kept as in PyTorch, and the step notification has
    no listener.
    """

    _current_step = 0
    _step_dict = defaultdict(int)

    @classmethod
    def init_step_count(cls, requester):
        """Initialize for a given requester."""
        cls._step_dict[requester] = cls._current_step

    @classmethod
    def erase_step_count(cls, requester):
        """Remove a given requester."""
        return cls._step_dict.pop(requester, None) is not None

    @classmethod
    def increment_step(cls, requester):
        """Increments the step count for the requester.

        Additionally if the max over all step counts has incremented then
        trigger the _kineto_step() returns global step count
        """
        if requester not in cls._step_dict:
            cls.init_step_count(requester)
        cls._step_dict[requester] += 1

        new_step = max(cls._step_dict.values())
        if new_step > cls._current_step:
            delta = new_step - cls._current_step
            if delta > 1:
                warn("Profiler step count has increased more than 1 - "
                     f"current_step = {cls._current_step} step dict =  {cls._step_dict}", stacklevel=2)
            for _ in range(delta):
                _kineto_step()
            cls._current_step = new_step
        return cls._current_step

    @classmethod
    def current_step(cls):
        """Get the latest step for any requester."""
        return cls._current_step
