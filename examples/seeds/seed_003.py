"""Generated from the seed tutorial 003_c76186cd263d0371.txt by tools/extract_seeds.py.

Each notebook cell runs in one shared namespace, as in Jupyter; a cell that raises (some
cells of the tutorial demonstrate errors on purpose) prints the error and the next runs.
"""

import ast
import traceback

CELLS = [

    ('None', 'import ferrograd as torch\n# Create tensors.\nx = torch.tensor(3.)\nm = torch.tensor(4., requires_grad=True)\nc = torch.tensor(5., requires_grad=True)'),
    ('None', 'x,m,c'),
    ('None', 'y = m * x + c\nprint(y)'),
    ('None', '# Compute gradients\ny.backward()'),
    ('None', "# Display gradients\nprint('dy/dm:', m.grad)\nprint('dy/dc:', c.grad)"),
    ('None', 'a = torch.tensor([2., 3.], requires_grad=True)\nb = torch.tensor([6., 4.], requires_grad=True)'),
    ('None', 'Q = 3*a**3 - b**2\nprint(Q)'),
    ('None', 'Q.backward()'),
    ('None', 'external_grad = torch.tensor([1., 1.])\nQ.backward(gradient=external_grad)'),
    ('None', 'a.grad, b.grad'),
    ('None', '# check if collected gradients are correct\nprint(9*a**2 == a.grad)\nprint(-2*b == b.grad)'),
]


def main():
    ns = {"__name__": "__seed__"}
    for n, code in CELLS:
        print("In [%s]:" % n)
        try:
            tree = ast.parse(code)
            last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
            exec(compile(tree, "<cell %s>" % n, "exec"), ns)
            if last is not None:  # like Jupyter, show the value of a trailing expression
                value = eval(compile(ast.Expression(last.value), "<cell %s>" % n, "eval"), ns)
                if value is not None:
                    print(repr(value))
        except Exception as e:  # the notebook shows the error and goes on
            print("".join(traceback.format_exception_only(type(e), e)).strip())


if __name__ == "__main__":
    main()
