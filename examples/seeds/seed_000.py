"""Generated from the seed tutorial 000_ebc2824ae0d619fc.txt by tools/extract_seeds.py.

Each notebook cell runs in one shared namespace, as in Jupyter (see _runner.py).
"""

from _runner import run

CELLS = [

    ('1', 'import ferrograd as torch'),
    ('2', '# Create a tensor and set requires_grad = True to track computation with it.\nx = torch.ones(2, 2, requires_grad=True)\nprint(x)'),
    ('3', '# Do an operation of tensor.\ny = x + 2 \nprint(y)'),
    ('4', 'print(y.grad_fn)'),
    ('5', '# Do more operations on y\nz = y * y * 3 \nout = z.mean()\nprint(z, out)'),
    ('6', 'a = torch.randn(2, 2)\na = ((a*3)/(a-1))\nprint(a.requires_grad)\na.requires_grad_(True)\nprint(a.requires_grad)\nb = (a * a).sum()\nprint(b.grad_fn)'),
    ('7', 'out.backward()'),
    ('8', '# print gradients d(out)/dx\nprint(x.grad)'),
    ('9', "# Let's take a look at an example of Jacobian-vector product:\nx = torch.randn(3, requires_grad = True)\ny = x * 2 \nwhile y.data.norm() < 1000:\n    y = y * 2 \nprint(y)"),
    ('10', '# Now in this case y is no longer a scalar. torch.autograd could not compute the full Jacobian directly\n# but if we just wnat the Jacobian-vector product, simple pass the vector to backward as argument.\nv = torch.tensor([0.1, 1.0, 0.0001], dtype = torch.float)\ny.backward(v)\nprint(x.grad)'),
    ('11', 'y.backward()'),
    ('12', '#simple gradient\na = torch.tensor([2.,3.], requires_grad=True)\nb = a + 3 \nc = b * b * 3 \nout = c.mean()\nout.backward()'),
    ('13', "print('input: ', a.data)"),
    ('14', "print('compute result is ', out.data)"),
    ('15', "print('input gradients are: ', a.grad.data)"),
    ('16', 'm = torch.tensor([[2., 3.]], requires_grad = True)\nn = torch.zeros((1,2))\nprint(n)\nn[0,0] = m[0,0] ** 2 \nn[0,1] = m[0,1] ** 3'),
    ('17', 'n.backward(m.data, retain_graph=True)'),
    ('18', 'm.grad'),
    ('19', 'n.backward(torch.tensor([[1.,1]]))'),
    ('20', 'm.grad '),
]

if __name__ == "__main__":
    run(CELLS)
