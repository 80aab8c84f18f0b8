package cfg

import "son/syntax"

// Level is which discipline a function follows.
type Level uint8

const (
	SSA Level = iota // one definition per register, Phis at block entry
	RTL              // no Phis, registers assigned any number of times
)

func (l Level) String() string {
	if l == RTL {
		return "RTL"
	}
	return "SSA"
}

// Reg is a virtual register. 0 is no register.
type Reg int32

// Func is one function: its blocks, the entry first.
type Func struct {
	Name   string
	Level  Level
	Blocks []*Block
}

// Block is a basic block: Phis, then instructions in order, then one
// terminator.
type Block struct {
	ID     int      // unique in the function; printed b<ID>
	Preds  []*Block // in order: a Phi's i-th argument comes from Preds[i]
	Phis   []*Phi
	Instrs []*Instr
	Term   Term
	// succs[:nsucc] are the successors (Succs), set by the terminator:
	// Jump one, Branch two (true, false), Return none. Held in the block,
	// not a slice: a slice's header and its array took 32 to 40 bytes a
	// block for at most two successors.
	succs     [2]*Block
	LoopDepth int32 // number of loops around the block, for printing and code motion
	nsucc     uint8
}

// Succs returns the block's successors: Jump one, Branch two (true,
// false), Return none. The slice is the block's own: writing an element
// replaces that successor; SetSuccs and AddSucc change how many there are
// (an append to it copies: its capacity is its length).
func (b *Block) Succs() []*Block { return b.succs[:b.nsucc:b.nsucc] }

// SetSuccs sets the block's successors. A block has at most two: more is
// the caller's error (no terminator has more), and panics.
func (b *Block) SetSuccs(succs ...*Block) {
	if len(succs) > len(b.succs) {
		panic("cfg: a block has at most two successors")
	}
	b.succs = [2]*Block{}
	b.nsucc = uint8(copy(b.succs[:], succs))
}

// AddSucc appends s to the block's successors (at most two, as SetSuccs).
func (b *Block) AddSucc(s *Block) {
	if int(b.nsucc) == len(b.succs) {
		panic("cfg: a block has at most two successors")
	}
	b.succs[b.nsucc] = s
	b.nsucc++
}

// Phi is dst = φ(args): on entry from Preds[k], dst gets args[k]; all the
// Phis of a block take their values at once.
type Phi struct {
	Dst  Reg
	Args []Reg
	Pos  syntax.Pos
	Node int // ID of the Sea of Nodes node it came from, or 0
}

// Op is an instruction's operation.
type Op uint8

const (
	OpInvalid Op = iota
	OpConst      // Dst = Aux
	OpArg        // Dst = the function's argument
	OpCopy       // Dst = Args[0]
	OpAdd        // Dst = Args[0] + Args[1], and so on: the binary ops of son
	OpSub
	OpMul
	OpDiv // truncating; Args[1] must be non-zero (a Check before it makes sure)
	OpMod
	OpAnd
	OpOr
	OpXor
	OpShl
	OpSar
	OpShr
	OpEq
	OpNe
	OpLt
	OpLe
	OpNeg   // Dst = -Args[0]
	OpNot   // Dst = Args[0] == 0
	OpCheck // stops the program with "division by zero" if Args[0] is 0; no Dst
	numOps
)

// Instr is one instruction.
type Instr struct {
	Op   Op
	Dst  Reg // 0 for Check
	Args []Reg
	Aux  int64      // the value of a Const
	Pos  syntax.Pos // source position, where known
	Node int        // ID of the Sea of Nodes node it came from, or 0
}

// TermKind is the kind of a block's terminator.
type TermKind uint8

const (
	TermNone   TermKind = iota // not set: invalid in a finished function
	TermJump                   // go to Succs[0]
	TermBranch                 // go to Succs[0] if Reg is not 0, else to Succs[1]
	TermReturn                 // return Reg
)

// Term ends a block.
type Term struct {
	Kind TermKind
	Reg  Reg // the condition of a Branch, the value of a Return
	Pos  syntax.Pos
	Node int // ID of the Sea of Nodes node it came from, or 0
}

var opNames = [numOps]string{
	OpInvalid: "Invalid", OpConst: "Const", OpArg: "Arg", OpCopy: "Copy",
	OpAdd: "Add", OpSub: "Sub", OpMul: "Mul", OpDiv: "Div", OpMod: "Mod",
	OpAnd: "And", OpOr: "Or", OpXor: "Xor", OpShl: "Shl", OpSar: "Sar", OpShr: "Shr",
	OpEq: "Eq", OpNe: "Ne", OpLt: "Lt", OpLe: "Le", OpNeg: "Neg", OpNot: "Not", OpCheck: "Check",
}

func (op Op) String() string {
	if op < numOps {
		return opNames[op]
	}
	return "Op?"
}

// OpByName returns the op of that name, or OpInvalid.
func OpByName(name string) Op {
	for op := Op(1); op < numOps; op++ {
		if opNames[op] == name {
			return op
		}
	}
	return OpInvalid
}

// NumArgs is how many arguments op takes.
func (op Op) NumArgs() int {
	switch op {
	case OpConst, OpArg:
		return 0
	case OpCopy, OpNeg, OpNot, OpCheck:
		return 1
	}
	return 2
}

// HasDst reports whether op defines a register.
func (op Op) HasDst() bool { return op != OpCheck }

// IsBinary reports whether op is one of the binary arithmetic, bitwise,
// shift or comparison ops.
func (op Op) IsBinary() bool { return op >= OpAdd && op <= OpLe }
