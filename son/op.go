package son

// Op is the kind of a node. Properties of ops live in opTable, not in
// types per kind of node, as in Go's cmd/compile/internal/ssa.
type Op uint8

const (
	OpInvalid Op = iota

	// Control.
	OpStart     // the function entry: a tuple of (control, arg); no inputs
	OpStop      // the function exit: In = the Return nodes
	OpCProj     // control projection: In[0] = Start, If or Never; Aux = index (If: 0 true, 1 false)
	OpIf        // In[0] = control, In[1] = condition; a tuple (true, false)
	OpNever     // an If that always takes its true side; keeps infinite loops reachable from Stop
	OpRegion    // merge: In[0] = nil, In[1..n] = predecessor control
	OpLoop      // loop head: In[0] = nil, In[1] = entry, In[2] = back edge
	OpReturn    // In[0] = control, In[1] = value
	OpZeroCheck // In[0] = control, In[1] = divisor: stops the program if it is 0, else passes control on
	OpXCtrl     // dead control: stands for control that never arrives; no inputs

	// Data.
	OpConstant // Aux = value (or Type Top for the never-used value of a Never exit); no inputs
	OpProj     // data projection of Start: In[0] = Start, Aux = 1 (arg)
	OpPhi      // In[0] = Region or Loop, In[i] = value when control arrives from region input i
	OpAdd      // In[0] = nil, In[1] + In[2]
	OpSub      // -
	OpMul      // *
	OpDiv      // / truncating; In[0] = the ZeroCheck of In[2], or nil when In[2] cannot be 0
	OpMod      // % truncating; In[0] as for Div
	OpAnd      // &
	OpOr       // |
	OpXor      // ^
	OpShl      // <<  (count mod 64)
	OpSar      // >>  arithmetic
	OpShr      // >>> logical
	OpEq       // ==  (1 or 0)
	OpNe       // !=
	OpLt       // <
	OpLe       // <=
	OpNot      // In[1] == 0 ? 1 : 0
	OpMinus    // -In[1]
	OpRefine   // In[0] = a CProj of an If, In[1] = x, In[2] = y: x, known to stand in the relation to y (or to a constant) that the If's condition proves on that side (refine.go)

	// Builder only.
	OpScope // the parser's symbol table: In[0] = control, In[1+slot] = the value of each live variable

	numOps
)

type opInfo struct {
	name        string
	sym         string // operator as printed in expressions: "+" for Add
	control     bool   // produces control (or a tuple of control)
	multi       bool   // produces a tuple; users are projections
	commutative bool
	binary      bool // data op with In = [ctrl, x, y]
	unary       bool // data op with In = [ctrl, x]
	numIn       int  // number of inputs, -1 if variable
}

var opTable = [numOps]opInfo{
	OpInvalid:   {name: "Invalid"},
	OpStart:     {name: "Start", control: true, multi: true, numIn: 0},
	OpStop:      {name: "Stop", control: true, numIn: -1},
	OpCProj:     {name: "CProj", control: true, numIn: 1},
	OpIf:        {name: "If", control: true, multi: true, numIn: 2},
	OpNever:     {name: "Never", control: true, multi: true, numIn: 1},
	OpRegion:    {name: "Region", control: true, numIn: -1},
	OpLoop:      {name: "Loop", control: true, numIn: 3},
	OpReturn:    {name: "Return", control: true, numIn: 2},
	OpZeroCheck: {name: "ZeroCheck", control: true, numIn: 2},
	OpXCtrl:     {name: "XCtrl", control: true, numIn: 0},
	OpConstant:  {name: "Constant", numIn: 0},
	OpProj:      {name: "Proj", numIn: 1},
	OpPhi:       {name: "Phi", numIn: -1},
	OpAdd:       {name: "Add", sym: "+", binary: true, commutative: true, numIn: 3},
	OpSub:       {name: "Sub", sym: "-", binary: true, numIn: 3},
	OpMul:       {name: "Mul", sym: "*", binary: true, commutative: true, numIn: 3},
	OpDiv:       {name: "Div", sym: "/", binary: true, numIn: 3},
	OpMod:       {name: "Mod", sym: "%", binary: true, numIn: 3},
	OpAnd:       {name: "And", sym: "&", binary: true, commutative: true, numIn: 3},
	OpOr:        {name: "Or", sym: "|", binary: true, commutative: true, numIn: 3},
	OpXor:       {name: "Xor", sym: "^", binary: true, commutative: true, numIn: 3},
	OpShl:       {name: "Shl", sym: "<<", binary: true, numIn: 3},
	OpSar:       {name: "Sar", sym: ">>", binary: true, numIn: 3},
	OpShr:       {name: "Shr", sym: ">>>", binary: true, numIn: 3},
	OpEq:        {name: "Eq", sym: "==", binary: true, commutative: true, numIn: 3},
	OpNe:        {name: "Ne", sym: "!=", binary: true, commutative: true, numIn: 3},
	OpLt:        {name: "Lt", sym: "<", binary: true, numIn: 3},
	OpLe:        {name: "Le", sym: "<=", binary: true, numIn: 3},
	OpNot:       {name: "Not", sym: "!", unary: true, numIn: 2},
	OpMinus:     {name: "Minus", sym: "-", unary: true, numIn: 2},
	OpRefine:    {name: "Refine", numIn: 3},
	OpScope:     {name: "Scope", numIn: -1},
}

// String is the op's name, as in node listings: "Add", "Phi".
func (op Op) String() string {
	if op < numOps {
		return opTable[op].name
	}
	return "Op?"
}

// Symbol is the source operator of a unary or binary data op ("+", "==").
func (op Op) Symbol() string { return opTable[op].sym }

// IsControl reports whether nodes of op produce control (or a tuple of it).
func (op Op) IsControl() bool { return opTable[op].control }

// IsMulti reports whether nodes of op produce a tuple read by projections.
func (op Op) IsMulti() bool { return opTable[op].multi }

// IsCommutative reports whether the two operands of op may be swapped.
func (op Op) IsCommutative() bool { return opTable[op].commutative }

// IsBinary reports whether op is a data op of two operands, In[1] and In[2].
func (op Op) IsBinary() bool { return opTable[op].binary }

// IsUnary reports whether op is a data op of one operand, In[1].
func (op Op) IsUnary() bool { return opTable[op].unary }

// IsRegion reports whether op merges control: Region or Loop.
func (op Op) IsRegion() bool { return op == OpRegion || op == OpLoop }

// IsCompare reports whether op is a comparison, whose value is 0 or 1.
func (op Op) IsCompare() bool { return op == OpEq || op == OpNe || op == OpLt || op == OpLe }

// NumIn is the fixed number of inputs of op, or -1 when it varies.
func (op Op) NumIn() int { return opTable[op].numIn }

// OpByName returns the op named name ("Add"), or OpInvalid.
func OpByName(name string) Op {
	for op := Op(1); op < numOps; op++ {
		if opTable[op].name == name {
			return op
		}
	}
	return OpInvalid
}
