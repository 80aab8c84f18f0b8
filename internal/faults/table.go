package main

import (
	"fmt"
	"os"
	"strings"

	"son/internal/faults/outcome"
)

// label is a short name for what caught a fault first, for the table.
func label(v outcome.Verdict) string {
	before, _, _ := strings.Cut(v.Detail, ": ")
	switch v.First {
	case outcome.None:
		return "**nothing**"
	case outcome.Verifier, outcome.Checker, outcome.Testing:
		return before
	case outcome.Pass:
		if g, pass, ok := strings.Cut(before, " after "); ok && g == "pass" {
			return "the pass (" + pass + ")"
		}
		return "the pass (" + before + ")"
	case outcome.Differential:
		_, rest, _ := strings.Cut(v.Detail, ": ") // after "arg N"
		where, _, _ := strings.Cut(rest, ": ")
		if strings.HasPrefix(rest, "run: line: ") {
			where = "the reference against a run: line"
		}
		return "differential (" + where + ")"
	case outcome.Crash:
		stage := strings.TrimPrefix(before, "panic in ")
		return "crash (" + stage + ")"
	}
	return string(v.First)
}

// counts says on how many programs each kind caught the fault.
func counts(v outcome.Verdict) string {
	var parts []string
	for _, k := range outcome.Kinds {
		if c := v.Counts[k]; c > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, c))
		}
	}
	if len(parts) == 0 {
		return fmt.Sprintf("none of %d", v.Programs)
	}
	return strings.Join(parts, " · ") + fmt.Sprintf(" (of %d)", v.Programs)
}

// cell escapes text for a Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// table is the Markdown table of the results.
func table(rs []Result) string {
	var b strings.Builder
	b.WriteString("| # | fault | pass | what it does | caught first by | programs that caught it |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	for i, r := range rs {
		first, cnt := "", ""
		switch r.Status {
		case Ran:
			first, cnt = label(r.Verdict), counts(r.Verdict)
		default:
			first, cnt = "**"+string(r.Status)+"**", r.Note
		}
		fmt.Fprintf(&b, "| %d | `%s` | %s | %s | %s | %s |\n", i+1, r.Fault.Name, r.Fault.Pass,
			cell(r.Fault.What), cell(first), cell(cnt))
	}
	return b.String()
}

// summary is the campaign's summary: the share of faults a verifier or a
// checker caught, and every fault they did not, with what did.
func summary(rs []Result) string {
	var b strings.Builder
	by := map[outcome.Kind]int{}
	ran := 0
	var escapes, unusable []Result
	for _, r := range rs {
		if r.Status != Ran {
			unusable = append(unusable, r)
			continue
		}
		ran++
		by[r.Verdict.First]++
		if !r.Verdict.First.IsGuard() {
			escapes = append(escapes, r)
		}
	}
	pct := func(k int) string {
		if ran == 0 {
			return "-"
		}
		return fmt.Sprintf("%.0f%%", 100*float64(k)/float64(ran))
	}
	proved := by[outcome.Verifier] + by[outcome.Checker]
	guards := proved + by[outcome.Testing]
	fmt.Fprintf(&b, "%d faults ran; caught first by a verifier or a checker (the goal: 95%%): **%d (%s)** (a verifier %d, a checker %d); by a guard, validation by testing included: **%d (%s)** (testing %d).\n",
		ran, proved, pct(proved), by[outcome.Verifier], by[outcome.Checker], guards, pct(guards), by[outcome.Testing])
	fmt.Fprintf(&b, "Otherwise by the pass itself: %d; a crash: %d; a hang: %d; only the differential: %d; nothing: %d.\n",
		by[outcome.Pass], by[outcome.Crash], by[outcome.Hang], by[outcome.Differential], by[outcome.None])
	if len(unusable) > 0 {
		fmt.Fprintf(&b, "Not run (the catalogue must be fixed): ")
		for i, r := range unusable {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "`%s` (%s)", r.Fault.Name, r.Status)
		}
		b.WriteString(".\n")
	}
	if len(escapes) > 0 {
		b.WriteString("\nNot caught by a guard:\n\n")
		for _, r := range escapes {
			detail := r.Verdict.Detail
			if r.Verdict.First == outcome.None {
				detail = fmt.Sprintf("no guard and no difference on %d programs", r.Verdict.Programs)
			} else {
				detail = r.Verdict.Program + ": " + detail
			}
			fmt.Fprintf(&b, "- `%s` (%s): %s — %s\n", r.Fault.Name, r.Fault.Pass, label(r.Verdict), cell(detail))
		}
	}
	return b.String()
}

// Markers around the part of docs/ASSURANCE.md that -write replaces.
const (
	beginMarker = "<!-- begin fault table: written by go run ./internal/faults -write -->"
	endMarker   = "<!-- end fault table -->"
)

// writeBetweenMarkers replaces what lies between the markers in file
// with text.
func writeBetweenMarkers(file, text string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	out, err := replaceBetween(string(data), text)
	if err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	return os.WriteFile(file, []byte(out), 0o644)
}

// replaceBetween replaces what lies between the markers in doc.
func replaceBetween(doc, text string) (string, error) {
	i := strings.Index(doc, beginMarker)
	j := strings.Index(doc, endMarker)
	if i < 0 || j < i || strings.Count(doc, beginMarker) != 1 || strings.Count(doc, endMarker) != 1 {
		return "", fmt.Errorf("want one %q and, after it, one %q", beginMarker, endMarker)
	}
	return doc[:i+len(beginMarker)] + "\n" + text + doc[j:], nil
}
