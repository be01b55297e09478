"""Generated from the seed tutorial 004_78a19db150a1eb93.txt by tools/extract_seeds.py.

Each notebook cell runs in one shared namespace, as in Jupyter (see _runner.py).
"""

from _runner import run

CELLS = [

    ('0', 'import ferrograd as th\nfrom ferrograd.autograd import Variable\n## Define a function f\ndef f(x):\n    return th.sqrt(th.sum(th.pow(x,2), dim=0))'),
    ('0', '# Define a point x on a GPU\ndtype = (th.cuda.FloatTensor if th.cuda.is_available() else th.FloatTensor)\nn = 10\nx = th.randn(n).type(dtype)\n# or directly : \n# x = th.randn(n).to("cuda" if th.cuda.is_available() else "cpu")\n### Define a variable \nx = Variable(x, requires_grad=True)'),
    ('12', '# Attributes of a variable\nprint(x.grad)\nprint(x.grad_fn)\nprint(x.data)'),
    ('33', 'out = f(x)\nprint(out)'),
    ('0', 'out.backward(create_graph = True) # creat graph useful for higher order derivative products'),
    ('35', 'print(x.grad)\nprint(out.grad_fn)'),
    ('36', '# We can reset the data in the grad to zero\nx.grad.data.zero_()'),
    ('0', '## Define a function\ndef g(x,y,z):\n  return (th.log(x**2 + y**2) + z*x*y).mean()\n## Define variables : Only x and y will be considered as variables, z is going to be a pramater\nx = Variable(th.randn(n).to("cuda" if th.cuda.is_available() else "cpu"), requires_grad=True)\ny = Variable(th.randn(n).to("cuda" if th.cuda.is_available() else "cpu"), requires_grad=True)\nz = Variable(th.randn(n).to("cuda" if th.cuda.is_available() else "cpu"), requires_grad=False)'),
    ('60', 'out = g(x,y,z)\nout'),
    ('0', 'out.backward()'),
    ('62', '# it contains dg(x,y)/dx\nx.grad'),
    ('74', 'x = Variable(th.FloatTensor([[2,1]]).to("cuda" if th.cuda.is_available() else "cpu"), requires_grad=True)\nM = Variable(th.FloatTensor([[1,2],[3,4]]).to("cuda" if th.cuda.is_available() else "cpu")) \ny = th.mm(x,M)\nprint("y:",y)\nprint("M :",M)'),
    ('76', '### Do the backpro with respect to the first elemnt of y  : dy1/dx (I mean dy1/dx1 and dy1/dx2)\ny.backward(th.FloatTensor([[1, 0]]).to("cuda" if th.cuda.is_available() else "cpu"),create_graph = True)\nprint(x.grad.data)\nx.grad.data.zero_() #remove gradient in x.grad, or it will be accumulated\n### Do the backpro with respect to the second elemnt of y  : dy2/dx \ny.backward(th.FloatTensor([[0, 1]]).to("cuda" if th.cuda.is_available() else "cpu"),create_graph = True)\nprint(x.grad.data)\nx.grad.data.zero_() '),
    ('34', 'x = Variable(th.randn(2, 2), requires_grad=True)\ny = Variable(th.randn(2, 2), requires_grad=True)\nout = x ** 2 + x*y + y ** 2\nout'),
    ('0', '# do Backward\nout.backward(th.ones(2, 2), create_graph=True) # we put th.ones(2,2) to get the grad%x which is a matrix '),
    ('36', '# x.grad will contains the grad of out % x \nx_grad = x.grad # = 2*x+y\nx_grad'),
    ('37', '2*x + y'),
    ('38', "x.grad.data.zero_() # If we don't use this, we will accumulate values\nx_grad.backward(th.ones(2, 2))\nx.grad"),
]

if __name__ == "__main__":
    run(CELLS)
