package cfg

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"son/syntax"
)

// Parsing the text form that Print writes (see the package comment for
// the grammar). Parse checks what a line can say on its own: its syntax,
// op names and arities, whether a Phi comes before the instructions and
// nothing after the terminator, and that every block referred to exists.
// Everything else (single definitions, dominance, normalization,
// terminators present) is left to Verify, so that tests can write broken
// functions as text. Succs come from the terminators and Preds from the
// Succs, in block order. It takes time linear in the text.

// ParseError is a problem at one line of the text, numbered from 1.
type ParseError struct {
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// ParseErrors is every problem Parse found, in line order.
type ParseErrors []*ParseError

// maxParseErrors bounds the problems an error message shows.
const maxParseErrors = 10

func (l ParseErrors) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i == maxParseErrors {
			fmt.Fprintf(&b, "\n... and %d more", len(l)-maxParseErrors)
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Parse reads a function in the text form of Print. On error it returns
// nil and a ParseErrors.
func Parse(text string) (*Func, error) {
	p := &parser{byID: map[int]*Block{}}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		p.line = i + 1
		p.parseLine(strings.TrimSuffix(l, "\r"))
	}
	if p.f == nil {
		p.line = 1
		p.errorf("no %q line", "func NAME level SSA")
	} else {
		p.resolve()
	}
	if len(p.errs) > 0 {
		sort.SliceStable(p.errs, func(i, j int) bool { return p.errs[i].Line < p.errs[j].Line })
		return nil, p.errs
	}
	return p.f, nil
}

type parser struct {
	f    *Func
	line int // the current line
	errs ParseErrors
	byID map[int]*Block
	cur  *Block // the block being read
	refs []blockRef
}

// blockRef is a terminator's reference to a block, resolved at the end
// since blocks may be referred to before they are declared.
type blockRef struct {
	from *Block
	id   int
	line int
}

func (p *parser) errorf(format string, args ...any) {
	p.errs = append(p.errs, &ParseError{Line: p.line, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) parseLine(l string) {
	trimmed := strings.TrimSpace(l)
	if trimmed == "" || trimmed[0] == ';' {
		return
	}
	if p.f == nil {
		if w := strings.Fields(trimmed)[0]; w == "func" {
			p.funcLine(trimmed)
			return
		}
		p.errorf("expected %q first", "func NAME level SSA")
		p.f = &Func{} // and read on, to report the other lines' errors
	}
	code, comment, _ := strings.Cut(l, ";")
	pos, depth, hasDepth := p.comment(comment)
	fields := strings.Fields(code)
	switch w := fields[0]; {
	case w == "func":
		p.errorf("a second func line")
	case strings.HasSuffix(w, ":"):
		p.blockHeader(fields, depth, hasDepth)
	case p.cur == nil:
		p.errorf("%q outside a block", strings.TrimSpace(code))
	case p.cur.Term.Kind != TermNone:
		p.errorf("%q after the terminator of %v", strings.TrimSpace(code), p.cur)
	case w == "jump" || w == "branch" || w == "return":
		p.term(fields, pos)
	case w == "check" || w == "Check":
		if len(fields) != 2 {
			p.errorf("check takes 1 argument, has %d", len(fields)-1)
			return
		}
		if r, ok := p.reg(fields[1]); ok {
			p.cur.Instrs = append(p.cur.Instrs, &Instr{Op: OpCheck, Args: []Reg{r}, Pos: pos})
		}
	case len(fields) >= 3 && fields[1] == "=":
		p.def(fields, pos)
	default:
		p.errorf("cannot parse %q", strings.TrimSpace(code))
	}
}

// funcLine reads "func NAME level SSA|RTL", NAME bare or Go-quoted.
func (p *parser) funcLine(l string) {
	rest := strings.TrimLeftFunc(strings.TrimPrefix(l, "func"), unicode.IsSpace)
	var name string
	if strings.HasPrefix(rest, `"`) {
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			p.errorf("bad quoted function name")
			p.f = &Func{}
			return
		}
		name, _ = strconv.Unquote(q)
		rest = rest[len(q):]
	} else {
		i := strings.IndexFunc(rest, unicode.IsSpace)
		if i < 0 {
			i = len(rest)
		}
		name, rest = rest[:i], rest[i:]
	}
	p.f = &Func{Name: name}
	code, _, _ := strings.Cut(rest, ";")
	fields := strings.Fields(code)
	if len(fields) != 2 || fields[0] != "level" || (fields[1] != "SSA" && fields[1] != "RTL") {
		p.errorf("expected %q after the function name", "level SSA")
		return
	}
	if fields[1] == "RTL" {
		p.f.Level = RTL
	}
}

// comment reads the fields of a comment that Parse understands: "line N"
// or "line N:C", and "depth N". Other comments are ignored.
func (p *parser) comment(c string) (pos syntax.Pos, depth int32, hasDepth bool) {
	for _, field := range strings.Split(c, ",") {
		kw, val, ok := strings.Cut(strings.TrimSpace(field), " ")
		val = strings.TrimSpace(val)
		if !ok || val == "" {
			continue
		}
		switch {
		case kw == "line" && isDigit(val[0]):
			ls, cs, hasCol := strings.Cut(val, ":")
			ln, err1 := strconv.ParseInt(ls, 10, 32)
			col, err2 := int64(0), error(nil)
			if hasCol {
				col, err2 = strconv.ParseInt(cs, 10, 32)
			}
			if err1 != nil || err2 != nil || ln <= 0 || col < 0 {
				p.errorf("bad position %q", val)
				continue
			}
			pos = syntax.Pos{Line: int32(ln), Col: int32(col)}
		case kw == "depth" && (isDigit(val[0]) || val[0] == '-'):
			d, err := strconv.ParseInt(val, 10, 32)
			if err != nil {
				p.errorf("bad loop depth %q", val)
				continue
			}
			depth, hasDepth = int32(d), true
		}
	}
	return pos, depth, hasDepth
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// digits parses a non-negative decimal number of at most bits bits.
func digits(s string, bits int) (int, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, bits)
	return int(n), err == nil
}

// reg parses "vN".
func (p *parser) reg(s string) (Reg, bool) {
	if n, ok := digits(strings.TrimPrefix(s, "v"), 32); ok && strings.HasPrefix(s, "v") {
		return Reg(n), true
	}
	p.errorf("bad register %q", s)
	return 0, false
}

// blockID parses "bN".
func (p *parser) blockID(s string) (int, bool) {
	if n, ok := digits(strings.TrimPrefix(s, "b"), strconv.IntSize); ok && strings.HasPrefix(s, "b") {
		return n, true
	}
	p.errorf("bad block name %q", s)
	return 0, false
}

func (p *parser) blockHeader(fields []string, depth int32, hasDepth bool) {
	if len(fields) != 1 {
		p.errorf("text after the block name %s", fields[0])
		p.cur = &Block{}
		return
	}
	id, ok := p.blockID(strings.TrimSuffix(fields[0], ":"))
	if !ok {
		p.cur = &Block{} // read its lines all the same, for their errors
		return
	}
	if _, dup := p.byID[id]; dup {
		p.errorf("block b%d declared twice", id)
		p.cur = &Block{ID: id}
		return
	}
	b := &Block{ID: id}
	if hasDepth {
		b.LoopDepth = depth
	}
	p.byID[id] = b
	p.f.Blocks = append(p.f.Blocks, b)
	p.cur = b
}

func (p *parser) term(fields []string, pos syntax.Pos) {
	b := p.cur
	var nreg, nblk int
	var kind TermKind
	switch fields[0] {
	case "jump":
		kind, nreg, nblk = TermJump, 0, 1
	case "branch":
		kind, nreg, nblk = TermBranch, 1, 2
	case "return":
		kind, nreg, nblk = TermReturn, 1, 0
	}
	if len(fields)-1 != nreg+nblk {
		p.errorf("%s takes %d operands, has %d", fields[0], nreg+nblk, len(fields)-1)
		return
	}
	t := Term{Kind: kind, Pos: pos}
	if nreg == 1 {
		r, ok := p.reg(fields[1])
		if !ok {
			return
		}
		t.Reg = r
	}
	var ids []int
	for _, s := range fields[1+nreg:] {
		id, ok := p.blockID(s)
		if !ok {
			return
		}
		ids = append(ids, id)
	}
	b.Term = t
	for _, id := range ids {
		p.refs = append(p.refs, blockRef{from: b, id: id, line: p.line})
	}
}

// def reads "vD = Phi ...", "vD = Const N" and "vD = Op vA vB".
func (p *parser) def(fields []string, pos syntax.Pos) {
	b := p.cur
	dst, ok := p.reg(fields[0])
	if !ok {
		return
	}
	name, operands := fields[2], fields[3:]
	if name == "Phi" {
		if len(b.Instrs) > 0 {
			p.errorf("a Phi after the instructions of %v", b)
			return
		}
		phi := &Phi{Dst: dst, Pos: pos}
		for _, s := range operands {
			r, ok := p.reg(s)
			if !ok {
				return
			}
			phi.Args = append(phi.Args, r)
		}
		b.Phis = append(b.Phis, phi)
		return
	}
	op := OpByName(name)
	switch {
	case op == OpInvalid:
		p.errorf("unknown op %q", name)
		return
	case op == OpCheck:
		p.errorf("check defines no register")
		return
	case op == OpConst:
		if len(operands) != 1 {
			p.errorf("Const takes 1 value, has %d", len(operands))
			return
		}
		n, err := strconv.ParseInt(operands[0], 10, 64)
		if err != nil {
			p.errorf("bad constant %q", operands[0])
			return
		}
		b.Instrs = append(b.Instrs, &Instr{Op: OpConst, Dst: dst, Aux: n, Pos: pos})
		return
	}
	if n := op.NumArgs(); len(operands) != n {
		p.errorf("%v takes %d arguments, has %d", op, n, len(operands))
		return
	}
	in := &Instr{Op: op, Dst: dst, Pos: pos}
	for _, s := range operands {
		r, ok := p.reg(s)
		if !ok {
			return
		}
		in.Args = append(in.Args, r)
	}
	b.Instrs = append(b.Instrs, in)
}

// resolve sets Succs from the terminators' references and Preds from the
// Succs, in block order.
func (p *parser) resolve() {
	for _, r := range p.refs {
		s := p.byID[r.id]
		if s == nil {
			p.line = r.line
			p.errorf("undefined block b%d", r.id)
			continue
		}
		r.from.AddSucc(s)
	}
	for _, b := range p.f.Blocks {
		for _, s := range b.Succs() {
			s.Preds = append(s.Preds, b)
		}
	}
}
