package amd64

// Reg is a general-purpose register, numbered as the hardware numbers it:
// the low three bits go in ModRM/SIB/opcode, bit 3 in a REX prefix bit.
type Reg uint8

const (
	RAX Reg = iota
	RCX
	RDX
	RBX
	RSP
	RBP
	RSI
	RDI
	R8
	R9
	R10
	R11
	R12
	R13
	R14
	R15
	NumRegs

	// RIP is the instruction pointer, only as the base of a memory operand
	// (RIP-relative addressing).
	RIP Reg = 0x10
	// NoReg is the absent base or index of a memory operand.
	NoReg Reg = 0xFF
)

var regNames64 = [NumRegs]string{"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"}
var regNames32 = [NumRegs]string{"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi",
	"r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d"}
var regNames8 = [NumRegs]string{"al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil",
	"r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b"}

// Valid reports whether r is one of the sixteen general registers.
func (r Reg) Valid() bool { return r < NumRegs }

// String is the register's 64-bit name.
func (r Reg) String() string { return r.Name(8) }

// Name is the register's name at a size in bytes (8, 4 or 1).
func (r Reg) Name(size int) string {
	switch {
	case r == RIP:
		return "rip"
	case !r.Valid():
		return "noreg"
	case size == 4:
		return regNames32[r]
	case size == 1:
		return regNames8[r]
	}
	return regNames64[r]
}

// low is the register's number in ModRM, SIB or the opcode.
func (r Reg) low() byte { return byte(r) & 7 }

// ext is the REX bit that extends the register number to r8..r15.
func (r Reg) ext() byte { return byte(r) >> 3 & 1 }
