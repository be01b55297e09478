"""Runs the cells of a seed tutorial like Jupyter: one shared namespace, the value of a
trailing expression printed, and a cell that raises (some tutorial cells demonstrate errors
on purpose) prints the error while the next cells still run."""

import ast
import traceback


def run(cells):
    ns = {"__name__": "__seed__"}
    for n, code in cells:
        print("In [%s]:" % n)
        try:
            tree = ast.parse(code)
            last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
            exec(compile(tree, "<cell %s>" % n, "exec"), ns)
            if last is not None:
                value = eval(compile(ast.Expression(last.value), "<cell %s>" % n, "eval"), ns)
                if value is not None:
                    print(repr(value))
        except Exception as e:  # the notebook shows the error and goes on
            print("".join(traceback.format_exception_only(type(e), e)).strip())
