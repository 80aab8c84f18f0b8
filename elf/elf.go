// Package elf writes static ELF64 x86-64 executables for Linux: the ELF
// header, a read+execute PT_LOAD segment for the code (which holds the
// headers too, as linkers do), a read+write PT_LOAD segment for data when
// there is any, and a PT_GNU_STACK entry so that the stack is not
// executable. No section headers, no dynamic section, no interpreter: the
// kernel maps the segments and jumps to the entry point, with argc, argv
// and the environment on the stack (System V ABI, x86-64 supplement, 3.4).
package elf

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
)

// Base is the address the file is loaded at: the ELF header first, then
// the program headers and the code.
const Base = 0x400000

const (
	pageSize   = 0x1000
	headerSize = 64 // sizeof(Elf64_Ehdr)
	progSize   = 56 // sizeof(Elf64_Phdr)
)

// Exec is an executable to write.
type Exec struct {
	Text  []byte // machine code, loaded read+execute
	Data  []byte // data, loaded read+write; no data segment when empty
	Entry int    // the entry point, an offset in Text
}

// layout is where each part goes in the file (offset) and in memory.
type layout struct {
	nprog            int
	textOff, dataOff uint64
	textAddr, data   uint64
}

func layoutOf(textLen, dataLen int) layout {
	l := layout{nprog: 2}
	if dataLen > 0 {
		l.nprog = 3
	}
	l.textOff = align(headerSize+uint64(l.nprog)*progSize, 16)
	l.textAddr = Base + l.textOff
	textEnd := l.textOff + uint64(textLen)
	l.dataOff = align(textEnd, 16)
	// The data's own page, after the code's last; its address agrees with
	// its file offset modulo the page size, as mmap needs.
	l.data = Base + align(textEnd, pageSize) + l.dataOff%pageSize
	return l
}

// Layout is the address of the first byte of the code and of the data
// in an executable with textLen bytes of code and dataLen of data, for
// code that needs absolute addresses.
func Layout(textLen, dataLen int) (text, data uint64) {
	l := layoutOf(textLen, dataLen)
	if dataLen == 0 {
		return l.textAddr, 0
	}
	return l.textAddr, l.data
}

func align(v, a uint64) uint64 { return (v + a - 1) &^ (a - 1) }

// Bytes is the executable file.
func (e *Exec) Bytes() ([]byte, error) {
	if e.Entry < 0 || e.Entry >= len(e.Text) {
		return nil, fmt.Errorf("elf: entry point %d outside the %d bytes of code", e.Entry, len(e.Text))
	}
	l := layoutOf(len(e.Text), len(e.Data))
	var b bytes.Buffer
	h := elf.Header64{
		Type:      uint16(elf.ET_EXEC),
		Machine:   uint16(elf.EM_X86_64),
		Version:   uint32(elf.EV_CURRENT),
		Entry:     l.textAddr + uint64(e.Entry),
		Phoff:     headerSize,
		Ehsize:    headerSize,
		Phentsize: progSize,
		Phnum:     uint16(l.nprog),
	}
	copy(h.Ident[:], elf.ELFMAG)
	h.Ident[elf.EI_CLASS] = byte(elf.ELFCLASS64)
	h.Ident[elf.EI_DATA] = byte(elf.ELFDATA2LSB)
	h.Ident[elf.EI_VERSION] = byte(elf.EV_CURRENT)
	h.Ident[elf.EI_OSABI] = byte(elf.ELFOSABI_NONE)
	textEnd := l.textOff + uint64(len(e.Text))
	progs := []elf.Prog64{{
		Type: uint32(elf.PT_LOAD), Flags: uint32(elf.PF_R | elf.PF_X),
		Off: 0, Vaddr: Base, Paddr: Base, Filesz: textEnd, Memsz: textEnd, Align: pageSize,
	}}
	if len(e.Data) > 0 {
		n := uint64(len(e.Data))
		progs = append(progs, elf.Prog64{
			Type: uint32(elf.PT_LOAD), Flags: uint32(elf.PF_R | elf.PF_W),
			Off: l.dataOff, Vaddr: l.data, Paddr: l.data, Filesz: n, Memsz: n, Align: pageSize,
		})
	}
	progs = append(progs, elf.Prog64{
		Type: uint32(elf.PT_GNU_STACK), Flags: uint32(elf.PF_R | elf.PF_W), Align: 16,
	})
	// Writes to a bytes.Buffer do not fail.
	binary.Write(&b, binary.LittleEndian, &h)
	binary.Write(&b, binary.LittleEndian, progs)
	b.Write(make([]byte, l.textOff-uint64(b.Len())))
	b.Write(e.Text)
	if len(e.Data) > 0 {
		b.Write(make([]byte, l.dataOff-uint64(b.Len())))
		b.Write(e.Data)
	}
	return b.Bytes(), nil
}

// WriteFile writes the executable to path, executable by all.
func (e *Exec) WriteFile(path string) error {
	b, err := e.Bytes()
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o755); err != nil {
		return err
	}
	// WriteFile keeps the mode of a file that exists.
	return os.Chmod(path, 0o755)
}
