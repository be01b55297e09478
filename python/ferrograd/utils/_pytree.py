"""``torch.utils._pytree``: nested containers as a flat list of leaves plus a ``TreeSpec``
describing the structure. Tuples, lists, dicts, namedtuples, ``OrderedDict``,
``defaultdict`` and ``deque`` are nodes; ``register_pytree_node`` adds more; anything
else (``None`` included) is a leaf."""

import collections
import warnings

__all__ = ["LeafSpec", "TreeSpec", "register_pytree_node", "tree_all", "tree_all_only", "tree_any", "tree_any_only",
           "tree_flatten", "tree_iter", "tree_leaves", "tree_map", "tree_map_", "tree_map_only", "tree_map_only_",
           "tree_structure", "tree_unflatten", "treespec_pprint"]

NodeDef = collections.namedtuple("NodeDef", "type flatten_fn unflatten_fn")
SUPPORTED_NODES = {}


def register_pytree_node(cls, flatten_fn, unflatten_fn, *, serialized_type_name=None, to_dumpable_context=None,
                         from_dumpable_context=None, flatten_with_keys_fn=None):
    """Make ``cls`` a node: ``flatten_fn(x) -> (children, context)`` and
    ``unflatten_fn(children, context) -> x``."""
    if cls in SUPPORTED_NODES:
        raise ValueError(f"{cls} is already registered as pytree node.")
    SUPPORTED_NODES[cls] = NodeDef(cls, flatten_fn, unflatten_fn)


def _is_namedtuple_type(cls):
    return isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields")


register_pytree_node(tuple, lambda t: (list(t), None), lambda xs, ctx: tuple(xs))
register_pytree_node(list, lambda t: (list(t), None), lambda xs, ctx: list(xs))
register_pytree_node(dict, lambda d: (list(d.values()), list(d.keys())), lambda xs, keys: dict(zip(keys, xs)))
register_pytree_node(collections.namedtuple, lambda t: (list(t), type(t)), lambda xs, cls: cls(*xs))
register_pytree_node(collections.OrderedDict, lambda d: (list(d.values()), list(d.keys())),
                     lambda xs, keys: collections.OrderedDict(zip(keys, xs)))
register_pytree_node(collections.defaultdict, lambda d: (list(d.values()), [d.default_factory, list(d.keys())]),
                     lambda xs, ctx: collections.defaultdict(ctx[0], zip(ctx[1], xs)))
register_pytree_node(collections.deque, lambda d: (list(d), d.maxlen), lambda xs, maxlen: collections.deque(xs, maxlen=maxlen))


def _node_type(tree):
    """The registry key of ``tree``'s node kind, or None for a leaf."""
    t = type(tree)
    if _is_namedtuple_type(t):
        return collections.namedtuple
    return t if t in SUPPORTED_NODES else None


class TreeSpec:
    """The structure of a pytree: the node's type, its context (dict keys, a namedtuple's
    class, ...) and the specs of its children."""

    def __init__(self, type, context, children_specs):
        self.type = type
        self.context = context
        self._children = list(children_specs)
        self.num_nodes = 1 + sum(c.num_nodes for c in self._children)
        self.num_leaves = sum(c.num_leaves for c in self._children)
        self.num_children = len(self._children)

    @property
    def children_specs(self):
        warnings.warn("`treespec.children_specs` is deprecated. Use `treespec.child(index)` to access a single child, "
                      "or `treespec.children()` to get all children.", FutureWarning, stacklevel=2)
        return self._children

    def children(self):
        """The children's specs."""
        return list(self._children)

    def child(self, index):
        """The spec of child ``index``."""
        return self._children[index]

    def is_leaf(self):
        """Whether this spec is a single leaf."""
        return self.num_nodes == 1 and self.num_leaves == 1

    def flatten_up_to(self, tree):
        """The subtrees of ``tree`` at this spec's leaves."""
        out = []

        def walk(spec, t):
            if spec.is_leaf():
                out.append(t)
                return
            kids, ctx = SUPPORTED_NODES[spec.type].flatten_fn(t)
            if len(kids) != spec.num_children:
                raise ValueError(f"Node arity mismatch; expected {spec.num_children}, but got {len(kids)}.")
            for c, k in zip(spec._children, kids):
                walk(c, k)

        walk(self, tree)
        return out

    def unflatten(self, leaves):
        """The pytree of this structure holding ``leaves``."""
        leaves = list(leaves)
        if len(leaves) != self.num_leaves:
            raise ValueError(f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} but the spec refers to a "
                             f"pytree that holds {self.num_leaves} items ({self}).")
        it = iter(leaves)

        def build(spec):
            if spec.is_leaf():
                return next(it)
            return SUPPORTED_NODES[spec.type].unflatten_fn([build(c) for c in spec._children], spec.context)

        return build(self)

    def __eq__(self, other):
        if not isinstance(other, TreeSpec):
            return NotImplemented
        return (self.is_leaf() and other.is_leaf()) or (
            self.type == other.type and self.context == other.context and self._children == other._children)

    def __hash__(self):
        return hash((self.type, repr(self.context), self.num_nodes))

    def __repr__(self, indent=0):
        if self.is_leaf() and self.type is None:
            return "*"
        name = "namedtuple" if self.type is collections.namedtuple else self.type.__name__
        text = ""
        if self.num_children > 0:
            indent += 2
            text += self._children[0].__repr__(indent)
            text += "," if self.num_children > 1 else ""
            text += ",".join("\n" + " " * indent + c.__repr__(indent) for c in self._children[1:])
        return f"TreeSpec({name}, {self.context}, [{text}])"


class LeafSpec(TreeSpec):
    """The spec of a single leaf (printed ``*``)."""

    def __init__(self):
        super().__init__(None, None, [])
        self.num_nodes = 1
        self.num_leaves = 1

    def __repr__(self, indent=0):
        return "*"


_LEAF = LeafSpec()


def tree_flatten(tree, is_leaf=None):
    """``(leaves, spec)`` of ``tree``; ``is_leaf(x)`` True stops the descent at ``x``."""
    leaves = []

    def walk(t):
        kind = None if (is_leaf is not None and is_leaf(t)) else _node_type(t)
        if kind is None:
            leaves.append(t)
            return _LEAF
        kids, ctx = SUPPORTED_NODES[kind].flatten_fn(t)
        if kind is collections.namedtuple:
            ctx = type(t)
        return TreeSpec(kind, ctx, [walk(k) for k in kids])

    spec = walk(tree)
    return leaves, spec


def tree_unflatten(leaves, treespec):
    """The pytree of structure ``treespec`` holding ``leaves``."""
    if not isinstance(treespec, TreeSpec):
        raise TypeError(f"tree_unflatten(leaves, treespec): Expected `treespec` to be instance of TreeSpec but got item "
                        f"of type {type(treespec)}.")
    return treespec.unflatten(leaves)


def tree_leaves(tree, is_leaf=None):
    """The leaves of ``tree``, in order."""
    return tree_flatten(tree, is_leaf)[0]


def tree_iter(tree, is_leaf=None):
    """An iterator over the leaves of ``tree``."""
    return iter(tree_leaves(tree, is_leaf))


def tree_structure(tree, is_leaf=None):
    """The ``TreeSpec`` of ``tree``."""
    return tree_flatten(tree, is_leaf)[1]


def tree_map(func, tree, *rests, is_leaf=None):
    """``tree`` with each leaf replaced by ``func(leaf, *matching leaves of rests)``."""
    leaves, spec = tree_flatten(tree, is_leaf)
    others = [spec.flatten_up_to(r) for r in rests]
    return spec.unflatten(func(*xs) for xs in zip(leaves, *others))


def tree_map_(func, tree, *rests, is_leaf=None):
    """Call ``func`` on every leaf (with the matching leaves of ``rests``); returns ``tree``."""
    leaves, spec = tree_flatten(tree, is_leaf)
    others = [spec.flatten_up_to(r) for r in rests]
    for xs in zip(leaves, *others):
        func(*xs)
    return tree


def _only(types, func):
    def f(x):
        return func(x) if isinstance(x, types) else x

    return f


def tree_map_only(type_or_types, func, tree, is_leaf=None):
    """``tree_map`` applying ``func`` only to leaves of the given type(s)."""
    return tree_map(_only(type_or_types, func), tree, is_leaf=is_leaf)


def tree_map_only_(type_or_types, func, tree, is_leaf=None):
    """``tree_map_`` calling ``func`` only on leaves of the given type(s)."""
    return tree_map_(_only(type_or_types, func), tree, is_leaf=is_leaf)


def tree_all(pred, tree, is_leaf=None):
    """Whether ``pred`` holds for every leaf."""
    return all(map(pred, tree_leaves(tree, is_leaf)))


def tree_any(pred, tree, is_leaf=None):
    """Whether ``pred`` holds for some leaf."""
    return any(map(pred, tree_leaves(tree, is_leaf)))


def tree_all_only(type_or_types, pred, tree, is_leaf=None):
    """Whether ``pred`` holds for every leaf of the given type(s)."""
    return all(pred(x) for x in tree_leaves(tree, is_leaf) if isinstance(x, type_or_types))


def tree_any_only(type_or_types, pred, tree, is_leaf=None):
    """Whether ``pred`` holds for some leaf of the given type(s)."""
    return any(pred(x) for x in tree_leaves(tree, is_leaf) if isinstance(x, type_or_types))


def treespec_pprint(treespec):
    """A compact text of ``treespec`` (``*`` for each leaf)."""
    return repr(tree_unflatten(["*"] * treespec.num_leaves, treespec)).replace("'*'", "*")
