package amd64

// Cond is a condition code, numbered as the low nibble of the opcodes of
// jcc (0F 80+cc) and setcc (0F 90+cc).
type Cond uint8

const (
	CondO  Cond = iota // overflow
	CondNO             // no overflow
	CondB              // below (unsigned <)
	CondAE             // above or equal (unsigned >=)
	CondE              // equal
	CondNE             // not equal
	CondBE             // below or equal (unsigned <=)
	CondA              // above (unsigned >)
	CondS              // sign
	CondNS             // no sign
	CondP              // parity
	CondNP             // no parity
	CondL              // less (signed <)
	CondGE             // greater or equal (signed >=)
	CondLE             // less or equal (signed <=)
	CondG              // greater (signed >)
	NumConds
)

var condNames = [NumConds]string{"o", "no", "b", "ae", "e", "ne", "be", "a", "s", "ns", "p", "np", "l", "ge", "le", "g"}

func (c Cond) String() string {
	if c >= NumConds {
		return "?"
	}
	return condNames[c]
}

// Invert is the condition that holds exactly when c does not.
func (c Cond) Invert() Cond { return c ^ 1 }
