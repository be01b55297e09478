"""``autograd.functional``: jacobian, hessian, vjp, jvp, hvp, vhp, with PyTorch's argument
checks, ``strict`` mode and zero-filling of gradients an output does not depend on (built on
``autograd.grad``; ``jvp`` / ``hvp`` by the double-backward trick, as PyTorch; the
forward-mode Jacobian through forward AD)."""


__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def _as_tuple(inp, arg_name=None, fn_name=None):
    """``(was_tuple, tuple_of_tensors)``; anything else is PyTorch's TypeError."""
    from .. import Tensor

    if arg_name is None and fn_name is None:
        return isinstance(inp, tuple), inp if isinstance(inp, tuple) else (inp,)
    is_tuple = isinstance(inp, tuple)
    if not is_tuple:
        inp = (inp,)
    for i, el in enumerate(inp):
        if not isinstance(el, Tensor):
            if is_tuple:
                raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors but the"
                                f" value at index {i} has type {type(el)}.")
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors but the"
                            f" given {arg_name} has type {type(el)}.")
    return is_tuple, inp


def _tuple_postprocess(res, to_unpack):
    if isinstance(to_unpack, tuple):
        if not to_unpack[1]:
            res = tuple(el[0] for el in res)
        if not to_unpack[0]:
            res = res[0]
    elif not to_unpack:
        res = res[0]
    return res


def _grad_preprocess(inputs, create_graph, need_graph):
    """Fresh leaves of the inputs (views keeping the graph when one is being built)."""
    res = []
    for inp in inputs:
        if create_graph and inp.requires_grad:
            res.append(inp.view_as(inp))
        else:
            res.append(inp.detach().requires_grad_(need_graph))
    return tuple(res)


def _grad_postprocess(inputs, create_graph):
    from .. import Tensor

    if isinstance(inputs[0], Tensor):
        return inputs if create_graph else tuple(inp.detach() if inp is not None else None for inp in inputs)
    return tuple(_grad_postprocess(inp, create_graph) for inp in inputs)


def _validate_v(v, other, is_other_tuple):
    if len(other) != len(v):
        if is_other_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for idx, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.size() != el_other.size():
            prepend = f"Entry {idx} in " if is_other_tuple else ""
            raise RuntimeError(f"{prepend}v has invalid size: should be {el_other.size()} but got {el_v.size()}.")


def _check_requires_grad(inputs, input_type, strict):
    if not strict:
        return
    for i, inp in enumerate(inputs):
        if inp is None:
            raise RuntimeError(f"The output of the user-provided function is independent of input {i}. This is not"
                               " allowed in strict mode.")
        if not inp.requires_grad:
            if input_type == "hessian":
                raise RuntimeError(f"The hessian of the user-provided function with respect to input {i} is"
                                   " independent of the input. This is not allowed in strict mode. You should ensure"
                                   " that your function is thrice differentiable and that the hessian depends on the"
                                   " inputs.")
            if input_type == "jacobian":
                raise RuntimeError("While computing the hessian, found that the jacobian of the user-provided"
                                   f" function with respect to input {i} is independent of the input. This is not"
                                   " allowed in strict mode. You should ensure that your function is twice"
                                   " differentiable and that the jacobian depends on the inputs (this would be"
                                   " violated by a linear function for example).")
            if input_type == "grad_inputs":
                raise RuntimeError(f"The gradient with respect to input {i} is independent of the inputs of the"
                                   " user-provided function. This is not allowed in strict mode.")
            raise RuntimeError(f"Output {i} of the user-provided function does not require gradients. The outputs"
                               " must be computed in a differentiable manner from the input when running in strict"
                               " mode.")


def _autograd_grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """``autograd.grad`` over the outputs that require grad (None for every input when none do)."""
    from . import grad

    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    new_outputs, new_grad_outputs = (), ()
    for out, grad_out in zip(outputs, grad_outputs):
        if out is not None and out.requires_grad:
            new_outputs += (out,)
            new_grad_outputs += (grad_out,)
    if not new_outputs:
        return (None,) * len(inputs)
    return grad(new_outputs, inputs, new_grad_outputs, allow_unused=True, create_graph=create_graph,
                retain_graph=retain_graph)


_FILL_MESSAGES = {
    "back": "The output of the user-provided function is independent of input {i}. This is not allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the grad_outputs when using"
                  " the double backward trick to compute forward mode gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. This is not allowed in"
                   " strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} in the grad_jacobian."
                         " This is not allowed in strict mode as it prevents from using the double backward trick to"
                         " replace forward mode AD.",
}


def _fill_in_zeros(grads, refs, strict, create_graph, stage):
    from .. import zeros_like

    res = ()
    for i, grads_i in enumerate(grads):
        if grads_i is None:
            if strict:
                raise RuntimeError(_FILL_MESSAGES[stage].format(i=i))
            grads_i = zeros_like(refs[i])
        elif strict and create_graph and not grads_i.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of input {i}. This is not"
                               " allowed in strict mode when create_graph=True.")
        res += (grads_i,)
    return res


def _v_or_single(v, against, is_tuple, fn_name, create_graph, what):
    if v is not None:
        _, v = _as_tuple(v, "v", fn_name)
        v = _grad_preprocess(v, create_graph=create_graph, need_graph=False)
        _validate_v(v, against, is_tuple)
        return v
    if len(against) != 1 or against[0].nelement() != 1:
        raise RuntimeError(f"The vector v can only be None if {what} a single Tensor with a single element.")
    return None


def _evaluate(func, inputs, create_graph, strict, fn_name):
    """``func`` at fresh leaves of ``inputs``: (inputs were a tuple, inputs, outputs were a
    tuple, outputs), the outputs checked in strict mode."""
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", fn_name)
    inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
    outputs = func(*inputs)
    is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", fn_name)
    _check_requires_grad(outputs, "outputs", strict=strict)
    return is_inputs_tuple, inputs, is_outputs_tuple, outputs


def _products(outputs, inputs, v, refs, strict, create_graph, stage):
    """The second backward of vjp / vhp / hvp (grad mode on only when a graph is built)."""
    from .. import is_grad_enabled, set_grad_enabled

    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        grad_res = _autograd_grad(outputs, inputs, v, create_graph=create_graph)
        return _fill_in_zeros(grad_res, refs, strict, create_graph, stage)


def _finish(outputs, is_outputs_tuple, res, is_res_tuple, create_graph):
    outputs = _grad_postprocess(outputs, create_graph)
    res = _grad_postprocess(res, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(res, is_res_tuple)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), vᵀ J)``: the vector-Jacobian product at ``inputs``."""
    from .. import enable_grad

    with enable_grad():
        is_inputs_tuple, inputs, is_outputs_tuple, outputs = _evaluate(func, inputs, create_graph, strict, "vjp")
        v = _v_or_single(v, outputs, is_outputs_tuple, "vjp", create_graph, "the user-provided function returns")
    res = _products(outputs, inputs, v, inputs, strict, create_graph, "back")
    return _finish(outputs, is_outputs_tuple, res, is_inputs_tuple, create_graph)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), J v)``: the Jacobian-vector product, by the double-backward trick."""
    from .. import enable_grad, zeros_like

    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        v = _v_or_single(v, inputs, is_inputs_tuple, "jvp", create_graph, "the input to the user-provided function is")
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jvp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        # the backward is linear in these: their value does not matter (finite zeros)
        grad_outputs = tuple(zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict=strict)
    if create_graph:
        with enable_grad():
            grad_res = _autograd_grad(grad_inputs, grad_outputs, v, create_graph=create_graph)
            res = _fill_in_zeros(grad_res, outputs, strict, create_graph, "back_trick")
    else:
        grad_res = _autograd_grad(grad_inputs, grad_outputs, v, create_graph=create_graph)
        res = _fill_in_zeros(grad_res, outputs, strict, create_graph, "back_trick")
    return _finish(outputs, is_outputs_tuple, res, is_outputs_tuple, create_graph)


def _jacfwd(func, inputs, strict, vectorize):
    """The Jacobian by forward AD: one tangent per input element."""
    from .. import stack, zeros, zeros_like
    from . import forward_ad as fwAD

    if strict:
        raise RuntimeError('torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` are not'
                           ' supported together (yet). Please either set `strict=False` or'
                           ' `strategy="reverse-mode"`.')
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    if not vectorize:
        # (PyTorch's message, its missing space included)
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                                  "only implemented for `vectorize=True`.")
    columns = None  # columns[out][inp] = list of tangents (one per input element)
    is_outputs_tuple, out_shapes = False, None
    for j, inp in enumerate(inputs):
        for k in range(inp.numel()):
            tangent = zeros(inp.numel(), dtype=inp.dtype)
            tangent[k] = 1
            with fwAD.dual_level():
                duals = tuple(fwAD.make_dual(x, tangent.view_as(x)) if i == j else x for i, x in enumerate(inputs))
                outs = func(*duals)
                is_outputs_tuple, outs = _as_tuple(outs, "outputs of the user-provided function", "jacobian")
                tans = []
                for o in outs:
                    t = fwAD.unpack_dual(o).tangent
                    tans.append(zeros_like(o) if t is None else t.clone())
                out_shapes = [o.shape for o in outs]
            if columns is None:
                columns = [[[] for _ in inputs] for _ in outs]
            for oi, t in enumerate(tans):
                columns[oi][j].append(t.detach())
    if columns is None:
        # every input is empty: evaluate once for the output shapes
        outs = func(*inputs)
        is_outputs_tuple, outs = _as_tuple(outs, "outputs of the user-provided function", "jacobian")
        out_shapes = [o.shape for o in outs]
        columns = [[[] for _ in inputs] for _ in outs]
    # (lists, as PyTorch's forward-mode result)
    jac = [
        [(stack(columns[oi][j], dim=-1) if columns[oi][j] else zeros(tuple(out_shapes[oi]) + (0,), dtype=x.dtype))
         .reshape(tuple(out_shapes[oi]) + tuple(x.shape))
         for j, x in enumerate(inputs)]
        for oi in range(len(out_shapes))]
    return _tuple_postprocess(jac, (is_outputs_tuple, is_inputs_tuple))


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``: for each (output, input) pair a tensor of shape
    ``output.shape + input.shape``; zeros where the output does not depend on the input."""
    from .. import enable_grad, stack, zeros_like

    assert strategy in ("forward-mode", "reverse-mode"), (
        'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
        'function has more outputs than inputs, "forward-mode" tends to be more performant. '
        'Otherwise, prefer to use "reverse-mode".')
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError("torch.autograd.functional.jacobian: `create_graph=True` and"
                                      ' `strategy="forward-mode"` are not supported together (yet). Please either set'
                                      ' `create_graph=False` or `strategy="reverse-mode"`.')
        return _jacfwd(func, inputs, strict, vectorize)
    with enable_grad():
        is_inputs_tuple, inputs, is_outputs_tuple, outputs = _evaluate(func, inputs, create_graph, strict, "jacobian")
        if vectorize and strict:
            raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not"
                               " supported together. Please either set `strict=False` or `vectorize=False`.")
        result = ()
        for i, out in enumerate(outputs):
            jac_i = tuple([] for _ in inputs)
            flat = out.reshape(-1)
            for j in range(out.nelement()):
                vj = _autograd_grad((flat[j],), inputs, retain_graph=True, create_graph=create_graph)
                for el_idx, (jac_i_el, vj_el, inp_el) in enumerate(zip(jac_i, vj, inputs)):
                    if vj_el is not None:
                        if strict and create_graph and not vj_el.requires_grad:
                            raise RuntimeError("The jacobian of the user-provided function is independent of input"
                                               f" {i}. This is not allowed in strict mode when create_graph=True.")
                        jac_i_el.append(vj_el)
                    else:
                        if strict:
                            raise RuntimeError(f"Output {i} of the user-provided function is independent of input"
                                               f" {el_idx}. This is not allowed in strict mode.")
                        jac_i_el.append(zeros_like(inp_el))
            result += (tuple(stack(jac_i_el, dim=0).view(out.size() + inputs[el_idx].size())
                             for el_idx, jac_i_el in enumerate(jac_i)),)
        result = _grad_postprocess(result, create_graph)
        return _tuple_postprocess(result, (is_outputs_tuple, is_inputs_tuple))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar function at ``inputs`` (a tensor per pair of inputs)."""
    from .. import Tensor

    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    assert outer_jacobian_strategy in ("forward-mode", "reverse-mode"), (
        'Expected strategy to be either "forward-mode" or "reverse-mode".')

    def ensure_single_output_function(*inp):
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(t_out, "outputs", strict=strict)
        if is_out_tuple or not isinstance(out, Tensor):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.nelement() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain a single element")
        return out.squeeze()

    def jac_func(*inp):
        if outer_jacobian_strategy == "forward-mode":
            inp = tuple(t.requires_grad_(True) for t in inp)
        jac = jacobian(ensure_single_output_function, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
        return jac

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize,
                   strategy=outer_jacobian_strategy)
    return _tuple_postprocess(res, (is_inputs_tuple, is_inputs_tuple))


def _scalar_function_prelude(func, inputs, v, create_graph, strict, fn_name):
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", fn_name)
    inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
    v = _v_or_single(v, inputs, is_inputs_tuple, fn_name, create_graph, "the input to the user-provided function is")
    outputs = func(*inputs)
    is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", fn_name)
    _check_requires_grad(outputs, "outputs", strict=strict)
    if is_outputs_tuple:
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should contain a single element")
    return is_inputs_tuple, inputs, v, outputs, is_outputs_tuple


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), vᵀ H)`` for a scalar function."""
    from .. import enable_grad

    with enable_grad():
        is_inputs_tuple, inputs, v, outputs, is_outputs_tuple = _scalar_function_prelude(
            func, inputs, v, create_graph, strict, "vhp")
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
    res = _products(jac, inputs, v, inputs, strict, create_graph, "double_back")
    return _finish(outputs, is_outputs_tuple, res, is_inputs_tuple, create_graph)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), H v)`` for a scalar function, by the double-backward trick."""
    from .. import enable_grad, zeros_like

    with enable_grad():
        is_inputs_tuple, inputs, v, outputs, is_outputs_tuple = _scalar_function_prelude(
            func, inputs, v, create_graph, strict, "hvp")
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
        grad_jac = tuple(zeros_like(inp, requires_grad=True) for inp in inputs)
        double_back = _autograd_grad(jac, inputs, grad_jac, create_graph=True)
        _check_requires_grad(jac, "hessian", strict=strict)
    res = _products(double_back, grad_jac, v, inputs, strict, create_graph, "double_back_trick")
    return _finish(outputs, is_outputs_tuple, res, is_inputs_tuple, create_graph)
