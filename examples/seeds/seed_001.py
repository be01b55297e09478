"""Generated from the seed tutorial 001_4d13fb9692af3b3c.txt by tools/extract_seeds.py.

Each notebook cell runs in one shared namespace, as in Jupyter (see _runner.py).
"""

from _runner import run

CELLS = [

    ('2', 'import ferrograd as torch\nimport numpy'),
    ('2', 'a = torch.tensor((1., 2., 3.), requires_grad=True)\nb = torch.tensor((2., 4., 6.), requires_grad=True)\nc = a * b\nd = c ** 2\ne = torch.sum(d)\ne.backward()\nprint(a.data, b.data)\nprint(a.grad, b.grad)\nprint(c.grad_fn)\nprint(d.grad_fn)\nprint(e.grad_fn)'),
    ('3', 'a = torch.tensor((1., 2., 3.), requires_grad=True)\nb = torch.tensor((2., 4., 6.), requires_grad=True)\nc = a * b\nd = c ** 2\ne = torch.sum(d)\ne.backward(retain_graph=True)\ne.backward()\nprint(a.data, b.data)\nprint(a.grad, b.grad)\nprint(c.grad_fn)\nprint(d.grad_fn)\nprint(e.grad_fn)'),
    ('4', 'a = torch.tensor((1., 2., 3.), requires_grad=True)\nb = torch.tensor((2., 4., 6.), requires_grad=True)\nc = a * b\nd = c ** 2\naux = torch.ones(c.shape[0])\nd.backward(aux)\nprint(a.data, b.data)\nprint(a.grad, b.grad)\nprint(c.grad_fn)\nprint(d.grad_fn)'),
    ('5', '# a.detach() would split one tensor from computing graph and make a copy of this a\n# a.detach() variable has grad_fn == False and requires_grad == False\n# b = a.detach() would change b into a and split backward\none = torch.tensor((1.,1.,1.), requires_grad=True)\na = torch.tensor((1., 2., 3.), requires_grad=True)\nb = torch.tensor((2., 4., 6.), requires_grad=True)\nc = a * b\nc = one.detach()\nd = c ** 2\ne = torch.sum(d)\ne.backward()\nprint(c.requires_grad, c.grad_fn)'),
    ('6', '# can freely change backward procedure during backward\n# can freely change any variable and bind with it\ndef modify_grad(grad):\n    print(grad)\n    return -grad\na = torch.tensor((1., 2., 3.), requires_grad=True)\nb = torch.tensor((2., 4., 6.), requires_grad=True)\nc = a * b\nd = c ** 2\nd.register_hook(modify_grad)\ne = torch.sum(d)\ne.backward()\nprint(a.data, b.data)\nprint(a.grad, b.grad)\nprint(c.grad_fn)\nprint(d.grad_fn)'),
    ('6', 'class custom_function(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x, y):\n        # store input var\n        ctx.x = x\n        ctx.y = y'),
    ('8', 'a = torch.tensor((1., 2., 3.), requires_grad=True)\nb = torch.tensor((2., 4., 6.), requires_grad=True)\nc = a * b\nd = c ** 2\nwith torch.no_grad():\n    d.mul_(2)\n# grad not tracked under torch.no_grad()\nprint(d.grad_fn)\ne = torch.sum(d)\ne.backward()\nprint(a.data, b.data)\nprint(a.grad, b.grad)\nprint(c.grad_fn)\nprint(d.grad_fn)'),
    ('10', 'a = torch.tensor((1., 2., 3.), requires_grad=True)\nb = torch.tensor((2., 4., 6.), requires_grad=True)\nc = a * b\nd = c ** 2\nd.retain_grad()\nprint(d.grad)\ne = torch.sum(d)\ne.backward()\nprint(d.grad)'),
]

if __name__ == "__main__":
    run(CELLS)
