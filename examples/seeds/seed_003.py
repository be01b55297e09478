"""Generated from the seed tutorial 003_c76186cd263d0371.txt by tools/extract_seeds.py.

Each notebook cell runs in one shared namespace, as in Jupyter (see _runner.py).
"""

from _runner import run

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

if __name__ == "__main__":
    run(CELLS)
