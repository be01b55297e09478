"""Turn the five seed tutorials (notebook dumps in ../shared/seeds/) into runnable scripts
under examples/seeds/, with `import torch` replaced by `import ferrograd as torch`.

A cell is the code after an `In [N]:` line up to the first blank line. Shell cells (`!pip`)
are dropped. Run: python tools/extract_seeds.py ../shared/seeds examples/seeds
"""

import ast
import pathlib
import re
import sys


OUTPUT = re.compile(r"^(None|True|False|[-+]?[\d.e+-]+|<.*|\(?tensor\(.*|Variable containing:.*|\[torch\..*)$")


def is_code(par):
    """A paragraph after a blank line continues the cell if it compiles and does not look
    like printed output."""
    if not par or OUTPUT.match(par[0].strip()):
        return False
    try:
        tree = ast.parse("\n".join(par))
    except SyntaxError:
        return False
    # `input:  tensor([2., 3.])` parses as an annotation but is printed output
    return not any(isinstance(node, ast.AnnAssign) for node in tree.body)


def cells(text):
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^In \[([^\]]*)\]:\s*$", lines[i])
        if not m:
            i += 1
            continue
        i += 1
        code = []
        while i < len(lines) and not re.match(r"^In \[", lines[i]):
            par = []
            while i < len(lines) and lines[i].strip() != "" and not re.match(r"^In \[", lines[i]):
                par.append(lines[i])
                i += 1
            if code and not is_code(par):
                break
            code.extend(par)
            while i < len(lines) and lines[i].strip() == "":
                i += 1
        while code and code[-1].strip() == "":
            code.pop()
        yield m.group(1), code


HEADER = '''"""Generated from the seed tutorial %s by tools/extract_seeds.py.

Each notebook cell runs in one shared namespace, as in Jupyter; a cell that raises (some
cells of the tutorial demonstrate errors on purpose) prints the error and the next runs.
"""

import ast
import traceback

CELLS = [
'''

FOOTER = ''']


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
'''


def port(line):
    # GPU cells fall back to the CPU where no GPU is present
    line = line.replace("th.cuda.FloatTensor", "(th.cuda.FloatTensor if th.cuda.is_available() else th.FloatTensor)")
    line = line.replace(".cuda()", '.to("cuda" if th.cuda.is_available() else "cpu")')
    line = re.sub(r"^(\s*)import torch as (\w+)", r"\1import ferrograd as \2", line)
    line = re.sub(r"^(\s*)import torch\b", r"\1import ferrograd as torch", line)
    line = re.sub(r"^(\s*)from torch\b", r"\1from ferrograd", line)
    return line


def convert(src, dst):
    out = [HEADER % src.name]
    for n, code in cells(src.read_text()):
        if not code or code[0].lstrip().startswith("!"):
            continue
        out.append("    (%r, %r)," % (n, "\n".join(port(line) for line in code)))
    out.append(FOOTER)
    dst.write_text("\n".join(out))


if __name__ == "__main__":
    src_dir, dst_dir = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    dst_dir.mkdir(parents=True, exist_ok=True)
    for f in sorted(src_dir.glob("*.txt")):
        convert(f, dst_dir / ("seed_%s.py" % f.name[:3]))
