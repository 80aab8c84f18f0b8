package elf

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestReadBack: debug/elf reads back what Bytes writes: the header, the
// entry point, the segments with their flags, addresses and contents, and
// nothing dynamic.
func TestReadBack(t *testing.T) {
	for _, tt := range []struct {
		name       string
		text, data []byte
		entry      int
	}{
		{"text only", []byte{0x90, 0x90, 0xC3}, nil, 1},
		{"text and data", bytes.Repeat([]byte{0x90}, 5000), []byte("hello, world\n"), 4999},
		{"text ending on a page", make([]byte, pageSize-int(layoutOf(1, 1).textOff)), []byte{1}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := &Exec{Text: tt.text, Data: tt.data, Entry: tt.entry}
			b, err := e.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			f, err := elf.NewFile(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if f.Class != elf.ELFCLASS64 || f.Data != elf.ELFDATA2LSB || f.Machine != elf.EM_X86_64 ||
				f.Type != elf.ET_EXEC || f.OSABI != elf.ELFOSABI_NONE {
				t.Errorf("header: %v %v %v %v %v", f.Class, f.Data, f.Machine, f.Type, f.OSABI)
			}
			textAddr, dataAddr := Layout(len(tt.text), len(tt.data))
			if f.Entry != textAddr+uint64(tt.entry) {
				t.Errorf("entry %#x, want %#x", f.Entry, textAddr+uint64(tt.entry))
			}
			if len(f.Sections) != 0 {
				t.Errorf("%d sections, want none", len(f.Sections))
			}
			var loads []*elf.Prog
			for _, p := range f.Progs {
				switch p.Type {
				case elf.PT_LOAD:
					loads = append(loads, p)
				case elf.PT_GNU_STACK:
					if p.Flags != elf.PF_R|elf.PF_W {
						t.Errorf("stack flags %v, want R+W", p.Flags)
					}
				default:
					t.Errorf("unexpected segment %v", p.Type)
				}
			}
			wantLoads := 1
			if len(tt.data) > 0 {
				wantLoads = 2
			}
			if len(loads) != wantLoads {
				t.Fatalf("%d PT_LOAD segments, want %d", len(loads), wantLoads)
			}
			text := loads[0]
			if text.Flags != elf.PF_R|elf.PF_X || text.Vaddr != Base || text.Off != 0 || text.Filesz != text.Memsz {
				t.Errorf("text segment %+v", text.ProgHeader)
			}
			all, _ := io.ReadAll(text.Open())
			if got := all[textAddr-Base:]; !bytes.Equal(got, tt.text) {
				t.Errorf("text segment holds %d bytes of code, want %d", len(got), len(tt.text))
			}
			if len(tt.data) > 0 {
				data := loads[1]
				if data.Flags != elf.PF_R|elf.PF_W || data.Vaddr != dataAddr || data.Filesz != uint64(len(tt.data)) {
					t.Errorf("data segment %+v, want at %#x", data.ProgHeader, dataAddr)
				}
				if data.Vaddr%pageSize != data.Off%pageSize || data.Vaddr/pageSize <= (text.Vaddr+text.Memsz-1)/pageSize {
					t.Errorf("data segment %+v does not map on its own page", data.ProgHeader)
				}
				got, _ := io.ReadAll(data.Open())
				if !bytes.Equal(got, tt.data) {
					t.Errorf("data segment holds %q, want %q", got, tt.data)
				}
			}
		})
	}
}

func TestEntryOutside(t *testing.T) {
	for _, e := range []*Exec{{Text: []byte{0xC3}, Entry: 1}, {Entry: 0}, {Text: []byte{0xC3}, Entry: -1}} {
		_, err := e.Bytes()
		if err == nil {
			t.Errorf("entry %d in %d bytes: no error", e.Entry, len(e.Text))
		}
	}
	_, err := (&Exec{Text: []byte{0xC3}, Entry: 3}).Bytes()
	if want := "elf: entry point 3 outside the 1 bytes of code"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// TestRun runs a hand-encoded program that stores a byte into its data
// segment (so the segment is mapped writable at the address Layout gave),
// writes the data to standard output and exits with 42.
func TestRun(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("the executable is Linux x86-64 code; this is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	data := []byte("?ello\n")
	var code []byte
	le := func(op []byte, v uint32) {
		code = binary.LittleEndian.AppendUint32(append(code, op...), v)
	}
	// Hand-assembled with the manual, independent of package amd64.
	prog := func(dataAddr uint32) {
		code = code[:0]
		le([]byte{0xBE}, dataAddr)           // mov esi, dataAddr
		code = append(code, 0xC6, 0x06, 'h') // mov byte ptr [rsi], 'h'
		le([]byte{0xB8}, 1)                  // mov eax, 1 (write)
		le([]byte{0xBF}, 1)                  // mov edi, 1
		le([]byte{0xBA}, uint32(len(data)))  // mov edx, len
		code = append(code, 0x0F, 0x05)      // syscall
		le([]byte{0xB8}, 60)                 // mov eax, 60 (exit)
		le([]byte{0xBF}, 42)                 // mov edi, 42
		code = append(code, 0x0F, 0x05)      // syscall
	}
	prog(0)
	_, dataAddr := Layout(len(code), len(data))
	prog(uint32(dataAddr))
	path := filepath.Join(t.TempDir(), "prog")
	if err := (&Exec{Text: code, Data: data}).WriteFile(path); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(path).Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 42 {
		t.Fatalf("exit: %v, want status 42", err)
	}
	if string(out) != "hello\n" {
		t.Errorf("output %q, want %q", out, "hello\n")
	}
}
