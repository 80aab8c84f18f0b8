package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"son/amd64"
	"son/elf"
)

var cmdBuild = &command{
	name:    "build",
	maxArgs: 1,
	want:    "one program file",
	args:    "prog.smp",
	short:   "compile a program to a standalone Linux x86-64 executable",
	long: `Build compiles prog.smp through every pass, selects x86-64 instructions,
allocates registers (checking the allocation with its independent checker;
with -check, every pass's checker and the selection's too) and writes a
static ELF64 executable that needs nothing else: no libc, no dynamic
loader. It is written to the file named by -o, by default the
program's file name without .smp in the current directory.

The executable takes its argument as son run does (an integer literal,
decimal or hexadecimal, optionally preceded by a minus sign; none means
0), prints the value the program returns and exits 0; a division by zero
writes "prog.smp:line:col: runtime error: division by zero" on standard
error and exits 1; a bad argument, a message and exit status 2.`,
	flags: func(fs *flag.FlagSet, f *flags) {
		fs.StringVar(&f.out, "o", "", "write the executable to `file`")
		checkFlag(fs, f)
		sccpFlag(fs, f)
		seedFlag(fs, f)
	},
	run: runBuild,
}

var cmdAsm = &command{
	name:    "asm",
	maxArgs: 1,
	want:    "one program file",
	args:    "prog.smp",
	short:   "print the x86-64 code of a program, with its source lines",
	long: `Asm compiles prog.smp as son build does and prints the program's machine
code in Intel syntax, after register allocation, each run of instructions
under a comment with the source line it comes from. The runtime around it
(_start, the printing of the result, the division stubs) is not shown.`,
	flags: func(fs *flag.FlagSet, f *flags) {
		checkFlag(fs, f)
		sccpFlag(fs, f)
		seedFlag(fs, f)
	},
	run: runAsm,
}

// backendChecks is what the backend checks of its own work for a command
// with flags f: the allocation always (regalloc.Check), the selection
// (amd64.CheckSelection) only with -check, as it costs about a tenth of
// the compile (docs/PERFORMANCE.md, "iselcheck14").
func backendChecks(f *flags) amd64.Checks {
	if f.check {
		return amd64.CheckAll
	}
	return amd64.CheckAllocation
}

// native compiles the program at path to machine code, with what its
// Listing needs when listing is set. Only the RTL function of the unit
// stays live while the backend runs; without the listing, the selected
// code goes before the allocation is checked (amd64.Code).
func (s *session) native(cmd *command, path string, f *flags, listing bool) (*amd64.Program, int, bool) {
	u, code, ok := s.compile(cmd, path, f, f.check)
	if !ok {
		return nil, code, false
	}
	var p *amd64.Program
	var err error
	if listing {
		p, err = amd64.Compile(u.Func, u.Name, u.Src, backendChecks(f))
	} else {
		p, err = amd64.Code(u.Func, u.Name, backendChecks(f))
	}
	if err != nil {
		fmt.Fprintf(s.stderr, "son: internal error: %v\n", err)
		return nil, exitInternal, false
	}
	return p, exitOK, true
}

func runBuild(s *session, cmd *command, args []string) int {
	f, args, code, ok := s.parseFlags(cmd, args)
	if !ok {
		return code
	}
	out := f.out
	if out == "" {
		out = strings.TrimSuffix(filepath.Base(args[0]), ".smp")
		if out == "" || out == "." || out == string(filepath.Separator) || out == filepath.Base(args[0]) {
			return s.usageError(cmd.name, "cannot name the executable after %s: give -o", args[0])
		}
	}
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		return s.usageError(cmd.name, "cannot write %s: it is a directory", out)
	} else if src, serr := os.Stat(args[0]); err == nil && serr == nil && os.SameFile(fi, src) {
		// The executable would replace the program it is made from.
		return s.usageError(cmd.name, "cannot write %s: it is the program file", out)
	}
	p, code, ok := s.native(cmd, args[0], f, false)
	if !ok {
		return code
	}
	if err := (&elf.Exec{Text: p.Code, Entry: p.Entry}).WriteFile(out); err != nil {
		return s.usageError(cmd.name, "cannot write %s: %v", out, errors.Unwrap(err))
	}
	return exitOK
}

func runAsm(s *session, cmd *command, args []string) int {
	f, args, code, ok := s.parseFlags(cmd, args)
	if !ok {
		return code
	}
	p, code, ok := s.native(cmd, args[0], f, true)
	if !ok {
		return code
	}
	io.WriteString(s.stdout, p.Listing())
	return exitOK
}

// canRunNative says why native code cannot run here, or "".
func canRunNative() string {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return fmt.Sprintf("-level native runs Linux x86-64 code; this is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	return ""
}

// runNative is son run -level native: it builds the program to a
// temporary file and runs it with arg, passing on its output and exit
// status.
func (s *session) runNative(cmd *command, path string, f *flags, arg int64) int {
	if why := canRunNative(); why != "" {
		return s.usageError(cmd.name, "%s", why)
	}
	p, code, ok := s.native(cmd, path, f, false)
	if !ok {
		return code
	}
	dir, err := os.MkdirTemp("", "son-run-")
	if err != nil {
		fmt.Fprintf(s.stderr, "son: %v\n", err)
		return exitInternal
	}
	defer os.RemoveAll(dir)
	exe := filepath.Join(dir, "prog")
	if err := (&elf.Exec{Text: p.Code, Entry: p.Entry}).WriteFile(exe); err != nil {
		fmt.Fprintf(s.stderr, "son: %v\n", err)
		return exitInternal
	}
	c := exec.Command(exe, strconv.FormatInt(arg, 10))
	c.Stdout, c.Stderr = s.stdout, s.stderr
	err = c.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee) && ee.Exited():
		return ee.ExitCode()
	}
	fmt.Fprintf(s.stderr, "son: running the executable: %v\n", err)
	return exitInternal
}
