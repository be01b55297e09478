"""Generated from the seed tutorial 002_6a046a34fe0ce8e2.txt by tools/extract_seeds.py.

Each notebook cell runs in one shared namespace, as in Jupyter (see _runner.py).
"""

from _runner import run

CELLS = [

    ('1', 'import ferrograd as torch\n# leaf variable 就是直接create的Tensor，他们不是其他操作的结果\nx = torch.ones(2,2, requires_grad=True)\n# 像x.t_() 这种in-place operation不能在requires_grad=True中使用\nprint(x)'),
    ('2', 'y = x + 2\nprint(y)'),
    ('3', '# 所谓的grad_fn 就是创造这个Tensor的function\nprint(y.grad_fn)'),
    ('4', 'print(y)\nprint(y.t_())'),
    ('5', '# 和TF一样，这里的相乘都是elementwise\n# 假如这里将表达式改成z = y * y.t_() * 3 ，这里不会得到matrix相乘的结果，因为Tensor.t_()是一个in-place operation\n# 所以在evaluate这个式子数值的时候也会将y改变，在这个expression中y与y.t_()是等效。\nz = y * y * 3\n# Tensor.mean() 等效于torch.mean()\nout = z.mean()\nprint(z, out)'),
    ('6', '# 不同于torch.rand()，这里生成的是从N(0,1) Gaussian Distribution采样的Tensor\na = torch.randn(2,2)\na = ((a * 3) / (a - 1))\n# requires_grad 这个flag by default 是 false的\nprint(a.requires_grad)\n# Tensor.requires_grad_()能将Tensor.requires_grad这个flag改变，如True，就开始追踪，有grad_fn\na.requires_grad_(True)\nprint(a.requires_grad)\nb = (a * a).sum()\nprint(b)\nprint(b.grad_fn)'),
    ('7', '# Tensor.backward() 开始backpropagation\nout.backward()'),
    ('11', '# 求出out对x的导数，因为x为一个矩阵，求出来的导数跟x形状一致\nprint(x.grad)'),
    ('15', 'x = torch.randn(3, requires_grad=True)\n# Tensor.data.norm()等于torch.norm(Tensor)，在默认情况下计算的是Forbenius Norm(matrix) 或者 L2 Norm(Vector)\ny = x * 2\nwhile y.data.norm() < 1000:\n    print(y.data.norm(), y)\n    y = y * 2\nprint(y)'),
    ('16', '# 这里y是一个向量， x也是一个向量，dy/dx应该是一个Jacobian矩阵， 但是若果y与x是更高维的Tensor，这里就无法给出导数的定义，\n# 所以PyTorch规定，Tensor.backward()，若果backward中没有额外的参数就不能求导，只能求scalar对Tensor的导数\n# 这里给出一个简单的例子，假设y也是一个中间变量，已知最终结果对y的求导结果为v，求最终结果对于x的求导\n# 可以理解为(y_transpose * v)得到一个scalar后再到x求导，这里的v可以像上面一个理解为最终结果对y的求导，\n# 也可以理解为对y各个分量求和的权重\nv = torch.tensor([0.1, 1.0, 0.001], dtype=torch.float)\ny.backward(v)\nprint(x.grad)'),
    ('18', '# x在上一个cell开了requires_grad，所以在它基础计算的Tensor自然也都是开了追踪\n# 除非有no_grad()暂时把追踪关闭\nprint(x.requires_grad)\nprint((x**2).requires_grad)\nwith torch.no_grad():\n    print((x**2).requires_grad)'),
    ('19', '# 或者使用Tensor.detach()，返回的值与x一样但是不再具有追踪功能\nprint(x.requires_grad)\ny = x.detach()\nprint(y.requires_grad)\n# Tensor0.eq(Tensor1) 与torch.eq()一样，会返回一个elementwise的BoolTensor\n# BoolTensor.all()会返回另一个boolTensor，如果BoolTensor全部都是True，它也返回一个True,否则只要有一个是False就返回一个False\nprint(x.eq(y).all())'),
]

if __name__ == "__main__":
    run(CELLS)
