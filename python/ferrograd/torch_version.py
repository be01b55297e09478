"""``torch.torch_version``: ``TorchVersion``, the ``str`` that ``torch.__version__`` is, which
compares with strings and tuples as versions (``torch.__version__ >= (2, 0)``,
``torch.__version__ < "2.1"``)."""

import re

__all__ = ["TorchVersion", "Version", "InvalidVersion"]

_PATTERN = re.compile(
    r"^\s*v?(?:(?P<epoch>\d+)!)?(?P<release>\d+(?:\.\d+)*)"
    r"(?:[-_.]?(?P<pre_l>a|b|c|rc|alpha|beta|pre|preview)[-_.]?(?P<pre_n>\d+)?)?"
    r"(?P<post>-(?P<post_n1>\d+)|[-_.]?(?:post|rev|r)[-_.]?(?P<post_n2>\d+)?)?"
    r"(?P<dev>[-_.]?dev[-_.]?(?P<dev_n>\d+)?)?"
    r"(?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?\s*$", re.IGNORECASE)


class InvalidVersion(ValueError):
    """A string that is not a PEP 440 version."""


class Version:
    """A PEP 440 version, ordered as ``packaging.version.Version`` orders them."""

    def __init__(self, text):
        m = _PATTERN.match(str(text))
        if m is None:
            raise InvalidVersion(f"Invalid version: '{text}'")
        self._text = str(text)
        release = [int(p) for p in m["release"].split(".")]
        while len(release) > 1 and release[-1] == 0:
            release.pop()
        pre_l = (m["pre_l"] or "").lower()
        pre_l = {"alpha": "a", "beta": "b", "c": "rc", "pre": "rc", "preview": "rc"}.get(pre_l, pre_l)
        # packaging's ordering key: a dev release of a final sorts before its pre-releases
        if pre_l:
            pre = ({"a": 0, "b": 1, "rc": 2}[pre_l], int(m["pre_n"] or 0))
        elif m["dev"] and not m["post"]:
            pre = (-1, 0)
        else:
            pre = (3, 0)
        post = int(m["post_n1"] or m["post_n2"] or 0) if m["post"] else -1
        dev = int(m["dev_n"] or 0) if m["dev"] else float("inf")
        local = tuple((1, int(p), "") if p.isdigit() else (0, 0, p) for p in re.split(r"[-_.]", m["local"])) if m["local"] else ()
        self._key = (int(m["epoch"] or 0), tuple(release), pre, post, dev, local)
        self.release = tuple(int(p) for p in m["release"].split("."))
        self.local = m["local"]

    def __str__(self):
        return self._text

    def __repr__(self):
        return f"<Version('{self._text}')>"

    def __hash__(self):
        return hash(self._key)

    def __eq__(self, other):
        return isinstance(other, Version) and self._key == other._key

    def __lt__(self, other):
        return self._key < other._key

    def __le__(self, other):
        return self._key <= other._key

    def __gt__(self, other):
        return self._key > other._key

    def __ge__(self, other):
        return self._key >= other._key


class TorchVersion(str):
    """``torch.__version__``: a ``str`` that compares with version strings, ``Version``s and
    tuples of ints as a version."""

    def _convert_to_version(self, inp):
        if isinstance(inp, Version):
            return inp
        if isinstance(inp, str):
            return Version(inp)
        if isinstance(inp, (tuple, list)):
            return Version(".".join(str(item) for item in inp))
        raise InvalidVersion(inp)

    def _cmp_wrapper(self, cmp, method):
        try:
            return getattr(Version(self), method)(self._convert_to_version(cmp))
        except BaseException as e:
            if not isinstance(e, InvalidVersion):
                raise
            # fall back to comparing as strings (what PyTorch does for a non-version)
            return getattr(super(), method)(cmp)

    def __gt__(self, cmp):
        return self._cmp_wrapper(cmp, "__gt__")

    def __lt__(self, cmp):
        return self._cmp_wrapper(cmp, "__lt__")

    def __ge__(self, cmp):
        return self._cmp_wrapper(cmp, "__ge__")

    def __le__(self, cmp):
        return self._cmp_wrapper(cmp, "__le__")

    def __eq__(self, cmp):
        return self._cmp_wrapper(cmp, "__eq__")

    def __hash__(self):
        return str.__hash__(self)


__version__ = TorchVersion("2.13.0+ferrograd")
