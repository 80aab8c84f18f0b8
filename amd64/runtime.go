package amd64

import "sync"

// The runtime: the code around a program that makes it a standalone Linux
// executable, with no libc. _start reads the argument from argv[1], calls
// the program's code, prints the result in decimal and exits 0; the
// program's division sites jump to stubs that print their position and
// exit 1. Everything goes through the write and exit system calls.
//
// The program's code is a function: it takes the argument in rdi and
// returns its result in rax, called with the System V stack alignment
// (rsp+8 a multiple of 16 on entry); it may change any register but rsp.

// Linux x86-64 system call numbers and the runtime's exit statuses.
const (
	sysWrite = 1
	sysExit  = 60

	// ExitOK, ExitRuntimeError and ExitBadArgument are the exit statuses of
	// an executable, as `son run` has them.
	ExitOK           = 0
	ExitRuntimeError = 1
	ExitBadArgument  = 2
)

// The line an executable writes on standard error, around argv[1], when
// argv[1] is not an integer literal as syntax.ParseInt reads it (son run's
// rule), with ParseInt's message for what is not one.
const (
	badArgPrefix = `bad argument "`
	badArgSuffix = `": want an integer literal such as 42, -7 or 0x2A` + "\n"
)

// Runtime emits the runtime into an assembler.
type Runtime struct {
	a *Asm
	// Entry is the executable's entry point, _start.
	Entry Label
	sites []divSite
	msgs  []byte // the sites' messages, one after the other
}

// divSite is a division's stub and its message, msgs[off:end].
type divSite struct {
	stub     Label
	off, end int
}

// NewRuntime emits _start into a, calling main, the label of the
// program's code, which the caller emits and binds.
func NewRuntime(a *Asm, main Label) *Runtime {
	rt := &Runtime{a: a, Entry: a.NewLabel()}
	rt.start(main)
	return rt
}

// runtimeStarts hold an assembler's state once main's label is made and
// _start emitted, one per Lean setting, made on first use: _start does
// not depend on the program, so lowering copies it (startRuntime)
// instead of encoding its instructions again, which took 40,000
// instructions of the CPU a compile (4% of the backend at 1k nodes).
var runtimeStarts [2]struct {
	once        sync.Once
	a           Asm
	main, entry Label
}

// startRuntime is main := a.NewLabel() and NewRuntime(a, main), for an
// assembler with nothing in it yet: a copy of runtimeStarts'.
func startRuntime(a *Asm) (main Label, rt *Runtime) {
	if len(a.items) > 0 || len(a.labels) > 0 || len(a.data) > 0 || a.err != nil {
		main = a.NewLabel()
		return main, NewRuntime(a, main)
	}
	t := &runtimeStarts[0]
	if a.Lean {
		t = &runtimeStarts[1]
	}
	t.once.Do(func() {
		t.a.Lean = a.Lean
		t.main = t.a.NewLabel()
		t.entry = NewRuntime(&t.a, t.main).Entry
	})
	a.appendAsm(&t.a)
	return t.main, &Runtime{a: a, Entry: t.entry}
}

// DivZero returns the label a division site jumps to when its divisor is
// zero: a stub that writes msg (the whole line, as
// "prog.smp:3:9: runtime error: division by zero\n") on standard error and
// exits 1. Finish emits the stubs.
func (rt *Runtime) DivZero(msg []byte) Label {
	l := rt.a.NewLabel()
	rt.msgs = append(rt.msgs, msg...) // copied into one array, not one each
	rt.sites = append(rt.sites, divSite{l, len(rt.msgs) - len(msg), len(rt.msgs)})
	return l
}

// Finish emits the division stubs requested, after the program's code.
func (rt *Runtime) Finish() {
	if len(rt.sites) == 0 {
		return
	}
	a := rt.a
	fail := a.NewLabel()
	for k, s := range rt.sites {
		a.Bind(s.stub)
		msg := rt.msgs[s.off:s.end:s.end] // DivZero's copy, no longer appended to
		lea := I2(LEA, R(RSI), RIPLabel(a.dataOwned(msg)))
		a.emit(&lea)
		mov := MovConst(RDX, int64(len(msg)))
		a.emitPlain(&mov)
		if k < len(rt.sites)-1 { // the last falls through
			a.emitBranch(JMP, 0, fail)
		}
	}
	rt.sites, rt.msgs = nil, nil
	a.Bind(fail)
	rt.write(2)
	rt.exit(ExitRuntimeError)
}

// write emits write(fd, rsi, rdx).
func (rt *Runtime) write(fd int64) {
	rt.a.Emit(MovConst(RAX, sysWrite))
	rt.a.Emit(MovConst(RDI, fd))
	rt.a.Emit(I0(SYSCALL))
}

// exit emits exit(status).
func (rt *Runtime) exit(status int64) {
	rt.a.Emit(MovConst(RAX, sysExit))
	rt.a.Emit(MovConst(RDI, status))
	rt.a.Emit(I0(SYSCALL))
}

// start emits _start. The kernel leaves argc at [rsp], argv[0] at
// [rsp+8], argv[1] at [rsp+16] (System V ABI, x86-64, figure 3.9), and
// rsp a multiple of 16. Arguments after argv[1] are ignored.
func (rt *Runtime) start(main Label) {
	a, e := rt.a, rt.a.Emit
	lenLoop, lenDone, noSign, digits, loop, done, call, bad := a.NewLabel(), a.NewLabel(), a.NewLabel(),
		a.NewLabel(), a.NewLabel(), a.NewLabel(), a.NewLabel(), a.NewLabel()
	a.Bind(rt.Entry)
	e(I2(XORL, R(RDI), R(RDI))) // the argument: 0 when there is none
	e(I2(MOV, R(RCX), M(RSP, 0)))
	e(I2(CMP, R(RCX), Imm(2)))
	e(Jcc(CondL, To(call)))
	e(I2(MOV, R(RSI), M(RSP, 16))) // rsi: argv[1]
	// rdx: its length.
	e(I2(XORL, R(RDX), R(RDX)))
	a.Bind(lenLoop)
	e(I2(MOVZX, R(RAX), MI(RSI, RDX, 1, 0)))
	e(I2(TEST, R(RAX), R(RAX)))
	e(Jcc(CondE, To(lenDone)))
	e(I2(ADD, R(RDX), Imm(1)))
	e(I1(JMP, To(lenLoop)))
	a.Bind(lenDone)
	// Syntax: an optional '-', then a hex literal ("0x" and 1 to 16
	// significant hex digits), or "0" or a nonzero digit and digits.
	// rcx: the index of the next byte; r8: 1 when negative.
	e(I2(XORL, R(RCX), R(RCX)))
	e(I2(XORL, R(R8), R(R8)))
	e(I2(TEST, R(RDX), R(RDX)))
	e(Jcc(CondE, To(bad)))
	e(I2(MOVZX, R(RAX), M(RSI, 0)))
	e(I2(CMP, R(RAX), Imm('-')))
	e(Jcc(CondNE, To(noSign)))
	e(MovConst(R8, 1))
	e(MovConst(RCX, 1))
	e(I2(CMP, R(RCX), R(RDX)))
	e(Jcc(CondE, To(bad))) // "-" alone
	a.Bind(noSign)
	// "0x" or "0X" starts a hex literal; "0" alone is 0; "0" followed by
	// anything else is a leading zero or a bad character.
	e(I2(MOVZX, R(RAX), MI(RSI, RCX, 1, 0)))
	e(I2(CMP, R(RAX), Imm('0')))
	e(Jcc(CondNE, To(digits)))
	e(I2(LEA, R(R9), M(RCX, 1)))
	e(I2(CMP, R(R9), R(RDX)))
	e(Jcc(CondE, To(digits)))
	e(I2(MOVZX, R(RAX), MI(RSI, R9, 1, 0)))
	e(I2(OR, R(RAX), Imm(0x20))) // lower case
	e(I2(CMP, R(RAX), Imm('x')))
	e(Jcc(CondNE, To(bad)))
	rt.hex(bad, call)
	a.Bind(digits)
	// The value, accumulated negative in rdi so that -2^63 fits: each
	// step rdi = rdi*10 - digit, any overflow sets OF.
	e(I2(XORL, R(RDI), R(RDI)))
	a.Bind(loop)
	e(I2(CMP, R(RCX), R(RDX)))
	e(Jcc(CondE, To(done)))
	e(I2(MOVZX, R(RAX), MI(RSI, RCX, 1, 0)))
	e(I2(SUB, R(RAX), Imm('0')))
	e(I2(CMP, R(RAX), Imm(9)))
	e(Jcc(CondA, To(bad))) // unsigned: below '0' wraps above 9
	e(Imul3(RDI, RDI, 10))
	e(Jcc(CondO, To(bad)))
	e(I2(SUB, R(RDI), R(RAX)))
	e(Jcc(CondO, To(bad)))
	e(I2(ADD, R(RCX), Imm(1)))
	e(I1(JMP, To(loop)))
	a.Bind(done)
	e(I2(TEST, R(R8), R(R8)))
	e(Jcc(CondNE, To(call)))
	e(I1(NEG, R(RDI)))
	e(Jcc(CondO, To(bad))) // 2^63
	a.Bind(call)
	e(I1(CALL, To(main)))
	rt.print()
	rt.exit(ExitOK)

	// The bad argument: rsi and rdx still hold argv[1] and its length.
	a.Bind(bad)
	e(I2(MOV, R(R12), R(RSI)))
	e(I2(MOV, R(R13), R(RDX)))
	e(I2(LEA, R(RSI), RIPLabel(a.Data([]byte(badArgPrefix)))))
	e(MovConst(RDX, int64(len(badArgPrefix))))
	rt.write(2)
	e(I2(MOV, R(RSI), R(R12)))
	e(I2(MOV, R(RDX), R(R13)))
	rt.write(2)
	e(I2(LEA, R(RSI), RIPLabel(a.Data([]byte(badArgSuffix)))))
	e(MovConst(RDX, int64(len(badArgSuffix))))
	rt.write(2)
	rt.exit(ExitBadArgument)
}

// hex emits the reading of a hex literal: rsi and rdx are argv[1] and
// its length, rcx the index of its "0x", r8 1 for a minus sign. Up to 16
// significant digits make the bits of the value, as in a program; a minus
// sign negates it, wrapping as unary minus does. The value goes to rdi,
// then to call; anything else to bad.
func (rt *Runtime) hex(bad, call Label) {
	a, e := rt.a, rt.a.Emit
	loop, digit, done := a.NewLabel(), a.NewLabel(), a.NewLabel()
	e(I2(ADD, R(RCX), Imm(2)))
	e(I2(CMP, R(RCX), R(RDX)))
	e(Jcc(CondE, To(bad))) // no digits
	e(I2(XORL, R(RDI), R(RDI)))
	a.Bind(loop)
	e(I2(CMP, R(RCX), R(RDX)))
	e(Jcc(CondE, To(done)))
	e(I2(MOVZX, R(RAX), MI(RSI, RCX, 1, 0)))
	e(I2(LEA, R(R9), M(RAX, -'0')))
	e(I2(CMP, R(R9), Imm(9)))
	e(Jcc(CondBE, To(digit))) // unsigned: below '0' wraps above 9
	e(I2(OR, R(RAX), Imm(0x20)))
	e(I2(SUB, R(RAX), Imm('a')))
	e(I2(CMP, R(RAX), Imm(5)))
	e(Jcc(CondA, To(bad)))
	e(I2(LEA, R(R9), M(RAX, 10)))
	a.Bind(digit)
	e(I2(MOV, R(R10), R(RDI)))
	e(I2(SHR, R(R10), Imm(60)))
	e(Jcc(CondNE, To(bad))) // a 17th significant digit
	e(I2(SHL, R(RDI), Imm(4)))
	e(I2(OR, R(RDI), R(R9)))
	e(I2(ADD, R(RCX), Imm(1)))
	e(I1(JMP, To(loop)))
	a.Bind(done)
	e(I2(TEST, R(R8), R(R8)))
	e(Jcc(CondE, To(call)))
	e(I1(NEG, R(RDI)))
	e(I1(JMP, To(call)))
}

// print emits the printing of rax in decimal and a newline on standard
// output. The digits are built from the end of a 32-byte buffer on the
// stack (20 digits, a sign and a newline fit), from a value made
// non-positive so that -2^63 needs no special case: idiv truncates, so
// the remainders are in [-9, 0].
func (rt *Runtime) print() {
	a, e := rt.a, rt.a.Emit
	digit, pos := a.NewLabel(), a.NewLabel()
	e(I2(SUB, R(RSP), Imm(32)))
	e(MovConst(R9, 31)) // r9: the first byte written
	e(MovConst(RCX, '\n'))
	e(I2(MOVB, MI(RSP, R9, 1, 0), R(RCX)))
	e(MovConst(RCX, 10))
	e(I2(MOV, R(R10), R(RAX))) // r10: the value, for its sign
	e(I2(TEST, R(RAX), R(RAX)))
	e(Jcc(CondLE, To(digit)))
	e(I1(NEG, R(RAX)))
	a.Bind(digit)
	e(I0(CQO))
	e(I1(IDIV, R(RCX)))
	e(I1(NEG, R(RDX)))
	e(I2(ADD, R(RDX), Imm('0')))
	e(I2(SUB, R(R9), Imm(1)))
	e(I2(MOVB, MI(RSP, R9, 1, 0), R(RDX)))
	e(I2(TEST, R(RAX), R(RAX)))
	e(Jcc(CondNE, To(digit)))
	e(I2(TEST, R(R10), R(R10)))
	e(Jcc(CondGE, To(pos)))
	e(I2(SUB, R(R9), Imm(1)))
	e(MovConst(RDX, '-'))
	e(I2(MOVB, MI(RSP, R9, 1, 0), R(RDX)))
	a.Bind(pos)
	e(I2(LEA, R(RSI), MI(RSP, R9, 1, 0)))
	e(MovConst(RDX, 32))
	e(I2(SUB, R(RDX), R(R9)))
	rt.write(1)
}
