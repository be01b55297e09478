"""Grad-mode switches, as context managers and decorators (thread-local, like PyTorch)."""

import functools
import inspect

from .. import _C


class _DecoratorContextManager:
    """Usable as ``with no_grad():`` and as ``@no_grad()``."""

    def __call__(self, func):
        if inspect.isgeneratorfunction(func):
            @functools.wraps(func)
            def gen(*args, **kwargs):
                with self.clone():
                    yield from func(*args, **kwargs)
            return gen

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)

        return wrapper

    def clone(self):
        return self.__class__()


class no_grad(_DecoratorContextManager):
    """Disable gradient recording."""

    def __init__(self, orig_func=None):
        self.prev = None
        if orig_func is not None and callable(orig_func):
            self._wrapped = self(orig_func)

    def __enter__(self):
        self.prev = _C._set_grad_enabled(False)

    def __exit__(self, *exc):
        _C._set_grad_enabled(self.prev)


class enable_grad(_DecoratorContextManager):
    """Enable gradient recording inside a ``no_grad`` region."""

    def __enter__(self):
        self.prev = _C._set_grad_enabled(True)

    def __exit__(self, *exc):
        _C._set_grad_enabled(self.prev)


class set_grad_enabled(_DecoratorContextManager):
    """Set grad mode on or off; takes effect at once (also usable as a function)."""

    def __init__(self, mode):
        self.mode = mode
        self.prev = _C._set_grad_enabled(mode)

    def __call__(self, func):
        # used as a decorator: constructing it switched the mode, which must not outlive the
        # decoration; each call of the function switches it for its own duration
        _C._set_grad_enabled(self.prev)
        return super().__call__(func)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _C._set_grad_enabled(self.prev)

    def clone(self):
        return self.__class__(self.mode)


class inference_mode(_DecoratorContextManager):
    """Like ``no_grad``, and tensors made inside are inference tensors."""

    def __init__(self, mode=True):
        self.mode = mode

    def __enter__(self):
        self.prev_inf = _C._set_inference_mode(self.mode)
        # as c10::InferenceMode: enabling it turns grad mode off, disabling it turns grad mode on
        self.prev_grad = _C._set_grad_enabled(not self.mode)

    def __exit__(self, *exc):
        _C._set_inference_mode(self.prev_inf)
        _C._set_grad_enabled(self.prev_grad)

    def clone(self):
        return self.__class__(self.mode)
