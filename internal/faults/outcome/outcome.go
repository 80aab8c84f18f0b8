// Package outcome is what the fault campaign's probe says about each
// program of its set (one JSON line per program), and how the campaign
// sums those lines up into the verdict on one fault: which guard caught it
// first, and on how many programs each caught it. The probe
// (internal/faults/probe) and the command (internal/faults) share it.
package outcome

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Kind is what caught a fault on one program.
type Kind string

const (
	Verifier     Kind = "verifier"     // son.Verify or cfg.Verify rejected a pass's result
	Checker      Kind = "checker"      // the pass's own checker rejected its result
	Testing      Kind = "testing"      // validation by testing: a level's result differs from the reference semantics' on a fixed argument, in the checked pipeline
	Pass         Kind = "pass"         // the pass itself stopped with an error
	Differential Kind = "differential" // a level's result differs from the reference, or its interpreter refused it
	Crash        Kind = "crash"        // a panic
	Hang         Kind = "hang"         // no answer within the probe's time bound
	None         Kind = ""             // nothing noticed
)

// Kinds lists the kinds that catch, in the order the verdict prefers them:
// a guard (verifier or checker, then validation by testing) first, since the campaign asks whether the
// guards catch each fault and not only whether something does.
var Kinds = []Kind{Verifier, Checker, Testing, Pass, Crash, Hang, Differential}

// rank is a kind's place in Kinds; a verifier and a checker rank equal,
// so that between them the first program wins.
func rank(k Kind) int {
	switch k {
	case Verifier, Checker:
		return 0
	case None:
		return len(Kinds)
	}
	for i, x := range Kinds {
		if x == k {
			return i - 1
		}
	}
	return len(Kinds)
}

// IsGuard reports whether k is a verifier, a pass's checker, or the
// validation by testing of the checked pipeline.
func (k Kind) IsGuard() bool { return k == Verifier || k == Checker || k == Testing }

// Program is the probe's line for one program: what the checked pipeline
// said (Guard: Verifier, Checker, Testing, Pass, Crash, Hang or None) and what the
// differential said (Diff: Differential, Crash, Hang or None), each with
// a one-line detail.
type Program struct {
	Name        string `json:"program"`
	Guard       Kind   `json:"guard,omitempty"`
	GuardDetail string `json:"guard_detail,omitempty"`
	Diff        Kind   `json:"diff,omitempty"`
	DiffDetail  string `json:"diff_detail,omitempty"`
	Millis      int64  `json:"ms"`
}

// Caught is what caught the fault on this program, preferring the checked
// pipeline's answer, with its detail; None if nothing did.
func (p Program) Caught() (Kind, string) {
	if p.Guard != None {
		return p.Guard, p.GuardDetail
	}
	return p.Diff, p.DiffDetail
}

// Done is the probe's last line: how many programs it ran, and why it
// stopped early if it did (a hang leaves a goroutine that cannot be
// stopped, so the probe ends there).
type Done struct {
	Done     bool   `json:"done"`
	Programs int    `json:"programs"`
	Stopped  string `json:"stopped,omitempty"`
}

// Verdict is what the campaign says about one fault.
type Verdict struct {
	First   Kind   // what caught it first, None if nothing did
	Detail  string // that catch's detail
	Program string // on which program
	// Counts is, for each kind, on how many programs it caught the fault:
	// Verifier, Checker, Pass, Crash and Hang from the checked pipeline,
	// Differential (and Crash, Hang) from the differential, so a program
	// can count under two kinds.
	Counts   map[Kind]int
	Programs int // programs run
}

// Classify sums up the probe's lines for one fault. The first catch is
// taken in the order of Kinds — a verifier or checker on any program
// before a pass error, a crash, a hang or a difference on any other —
// and among catches of equal rank, on the first program.
func Classify(ps []Program) Verdict {
	v := Verdict{Counts: map[Kind]int{}, Programs: len(ps)}
	best := rank(None)
	for _, p := range ps {
		if p.Guard != None {
			v.Counts[p.Guard]++
		}
		if p.Diff != None && !(p.Diff == p.Guard) {
			v.Counts[p.Diff]++
		}
		k, detail := p.Caught()
		if r := rank(k); r < best {
			best, v.First, v.Detail, v.Program = r, k, detail, p.Name
		}
	}
	return v
}

// Read reads the probe's output: its program lines, and its last line if
// it got that far (nil otherwise: the probe died or was stopped).
func Read(r io.Reader) ([]Program, *Done, error) {
	var ps []Program
	var done *Done
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		if strings.HasPrefix(text, `{"done"`) {
			done = new(Done)
			if err := json.Unmarshal([]byte(text), done); err != nil {
				return nil, nil, fmt.Errorf("probe output line %d: %v", line, err)
			}
			continue
		}
		var p Program
		if err := json.Unmarshal([]byte(text), &p); err != nil {
			return nil, nil, fmt.Errorf("probe output line %d: %v", line, err)
		}
		ps = append(ps, p)
	}
	return ps, done, sc.Err()
}

// Write writes one line of the probe's output.
func Write(w io.Writer, line any) error {
	b, err := json.Marshal(line)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
