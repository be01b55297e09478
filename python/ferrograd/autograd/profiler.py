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

import json
from collections import defaultdict

from .. import _C

__all__ = ["profile", "record_function", "FunctionEvent", "FunctionEventAvg", "EventList"]


class FunctionEvent:
    """One recorded event (times in microseconds)."""

    def __init__(self, id, name, thread, start_us, end_us, kind="op", input_shapes=None):
        self.id = id
        self.name = name
        self.thread = thread
        self.time_range = (start_us, end_us)
        self.kind = kind
        self.input_shapes = input_shapes or []
        self.cpu_children = []
        self.cpu_parent = None
        self.count = 1

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
        if _C._profiler_enabled():
            raise RuntimeError("Profiler is already enabled on this thread")
        self.entered = True
        _C._profiler_start(bool(self.record_shapes))
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        if not self.enabled:
            return False
        raw = _C._profiler_stop()
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
