// Package compile is the pipeline: a list of named passes run in order on
// one program, with the verifier of each level and each pass's own checker
// run between passes when checking is on, and per-pass statistics. The
// command line, the tests and the benchmarks all drive the compiler
// through it, stopping after any pass they want to see (as Simple's
// CodeGen.driver(Phase) does).
package compile

import (
	"fmt"
	"io"
	"sort"
	"time"

	"son/buildcheck"
	"son/cfg"
	"son/gcm"
	"son/gsa"
	"son/gvn"
	"son/opt"
	"son/outssa"
	"son/son"
	"son/ssagen"
	"son/syntax"
)

// Options configures a compilation.
type Options struct {
	// Check runs the verifier after every pass (and the pass's checker,
	// for passes that have one), checks every peephole step as it happens
	// (son.Graph.CheckRewrites), and validates each pass by testing
	// (testruns.go). Tests always set it.
	Check bool
	// StopAfter names the last pass to run; "" runs them all.
	StopAfter string
	// Seed orders the peephole worklist (0: last in, first out). Results
	// must not depend on it; tests vary it to make sure.
	Seed int64
	// SCCP chooses the analysis of the sccp pass: the combined one, or
	// one of its halves, or the halves iterated.
	SCCP opt.Mode
	// Trace, if set, receives the steps of the sccp pass's analysis.
	Trace io.Writer
	// AfterPass, if set, is called after each pass (and its checks) with
	// the unit as that pass left it: tests run the interpreter there, so
	// that one compilation serves every level. An error stops the
	// compilation and is returned as is.
	AfterPass func(u *Unit, pass string) error
	// NoGVN turns off the graph's own value numbering (son.Graph.NoGVN),
	// for measuring what the gvn pass finds alone.
	NoGVN bool
	// ShowGraph is called at each #showGraph statement of the program.
	ShowGraph func(g *son.Graph, scopes []*son.Node, names [][]string, pos syntax.Pos)
	// Via "rtl" makes the build pass take the second way in (via.go):
	// RTL, SSA in the flavour ViaSSA, validated, then the graph.
	Via    string
	ViaSSA ssagen.Flavour
	// RTL, with Via "rtl", is the RTL function to start from instead of
	// the source (an .rtl file).
	RTL *cfg.Func
	// GSA runs the passes of GSAPasses after gvn: the SSA function goes
	// through gated SSA and back before outssa (gsa.go). A StopAfter
	// naming one of them sets it.
	GSA bool
	// BlockStats fills PassStats.Blocks (son ir -stats): the ops of every
	// block after every pass at the cfg level, a copy of each function
	// that nothing else needs and that stays until the end.
	BlockStats bool
	// DropGraph lets each level go as soon as no later pass or checker
	// reads it: the peepholes' state once cleanup is checked (the graph is
	// sealed, son.Graph.Seal), gcm's schedule as soon as it is made (Unit.GCM stays
	// nil; gcm.ScheduleFunc lets its arrays go before the function's
	// blocks are made), the graph and the zerocheck pass's report once
	// son.Verify has read it (only if the sealed graph is not the one it
	// accepted after cleanup: verifiedAsIs) and, with checking on, gcm's
	// checker has recorded it (gcm.RecordGraph: the checker then reads the
	// record, not the graph), before that checker, cfg.Verify, the
	// test runs and AfterPass of gcm (the Stats of the later passes
	// repeat gcm's counts, which they do not change), gvn's numbering
	// once gvn is checked, the SSA function once outssa is checked
	// (outssa then makes the RTL function of the SSA one in place). son
	// check, build, asm and run -level native set it, so that the peak of
	// the cfg passes and the backend does not hold the levels before
	// (docs/PERFORMANCE.md, "Peak memory").
	DropGraph bool
}

// Pass is one step of the pipeline.
type Pass struct {
	Name string
	Doc  string
	run  func(*Unit) error
	// check, if set, is the pass's own checker, run on its result when
	// checking is on (before the verifier of the level).
	check func(*Unit) error
	// input asks for a record of the graph before the pass (Unit.Input,
	// opt.RecordZeroCheck), taken when checking is on, for a checker that
	// compares the pass's input with its output; inputFunc, of the cfg
	// function (Unit.InputFunc).
	input, inputFunc bool
}

// Passes is the pipeline, in order.
var Passes = []Pass{
	{Name: "build", Doc: "parse, resolve names, build the Sea of Nodes with a peephole on every new node", run: build, check: checkBuild},
	{Name: "peephole", Doc: "run peepholes from a worklist to a fixpoint (Simple chapter 9)", run: peephole},
	{Name: "sccp", Doc: "combined constant propagation and unreachable code (Click-Cooper), checked, then peepholes", run: sccp},
	{Name: "zerocheck", Doc: "remove ZeroChecks dominated by a check of the same value (Demange et al.) or by a branch proving it is not 0", run: zerocheck, check: checkZerocheck, input: true},
	{Name: "cleanup", Doc: "run peepholes to a fixpoint again, then drop the Refines, whose facts have served", run: cleanup},
	{Name: "gcm", Doc: "global code motion (Click): basic blocks in SSA form", run: schedule, check: checkSchedule},
	{Name: "gvn", Doc: "global value numbering (Alpern-Wegman-Zadeck), applied once its validator accepts it", run: valueNumbering, check: checkNumbering, inputFunc: true},
	{Name: "outssa", Doc: "out of SSA: Phis to sequentialized parallel moves, registers coalesced (RTL level)", run: outOfSSA, check: checkOutOfSSA, inputFunc: true},
}

// GSAPasses are the passes that Options.GSA inserts after gvn.
var GSAPasses = []Pass{
	{Name: "loops", Doc: "(with -via gsa) loops with one entry and one latch, landing pads on their exits, loop-closed SSA", run: prepareLoops},
	{Name: "gsa", Doc: "(with -via gsa) SSA to gated SSA (μ, γ with path predicates, η), validated, and back to SSA", run: toGSA, check: checkGSA, inputFunc: true},
}

// pipeline is the list of passes that o asks for: Passes, with GSAPasses
// after gvn when o.GSA is set or o.StopAfter names one of them.
func pipeline(o Options) []Pass {
	gsaOn := o.GSA
	for _, p := range GSAPasses {
		gsaOn = gsaOn || p.Name == o.StopAfter
	}
	if !gsaOn {
		return Passes
	}
	var ps []Pass
	for _, p := range Passes {
		ps = append(ps, p)
		if p.Name == "gvn" {
			ps = append(ps, GSAPasses...)
		}
	}
	return ps
}

// PassNames lists the names of the passes, in order.
func PassNames() []string {
	names := make([]string, len(Passes))
	for i, p := range Passes {
		names[i] = p.Name
	}
	return names
}

// Unit is a program going through the pipeline.
type Unit struct {
	Name string
	Src  []byte
	// File is the syntax tree, until the build pass is done with it: the
	// builder's checker and the reference's runs of checking (testruns.go)
	// read it first, and it is nil before son.Build starts, so that the
	// tree, as large as the graph for some programs, goes as soon as the
	// builder has read it. (The second way in, Options.Via, keeps it
	// until the end of the build pass.)
	File  *syntax.File
	Graph *son.Graph
	Opt   Options
	Stats []PassStats // one entry per pass run, in order

	// ZeroChecks lists what the zerocheck pass removed, with witnesses,
	// as the pass reports it (no checker reads it). Its nodes reach the
	// whole graph: DropGraph lets it go with the graph.
	ZeroChecks []opt.Removal
	// Input is the record of the graph as it was before the pass being
	// checked, when that pass's checker needs it (the zerocheck pass's:
	// opt.RecordZeroCheck, each live node by ID, not a Graph.Clone): what
	// the pipeline records, not what the pass reports.
	Input *opt.ZeroCheckRecord
	// GCM is the schedule of the gcm pass (nil under DropGraph, where
	// nothing reads it), and SSA the function it made: from then on the
	// program is at the cfg level.
	GCM *gcm.Result
	SSA *cfg.Func
	// OutSSA is the result of the outssa pass, at the RTL level.
	OutSSA *outssa.Result
	// Numbering is the numbering of the gvn pass that gvn.Validate
	// accepted, which the pass's checker trusts (gone after the pass
	// under DropGraph).
	Numbering gvn.Numbering
	// Func is the latest function at the cfg level: SSA after gcm, RTL
	// after outssa. The verifier and the tests' interpreters run on it.
	Func *cfg.Func
	// InputFunc is Func as it was before the pass being checked, when
	// that pass's checker needs it (a deep copy): what the pipeline
	// records, not what the pass reports.
	InputFunc *cfg.Func
	// GSA is the gated SSA function of the gsa pass (Options.GSA), from
	// which the pass made Func back.
	GSA *gsa.Func
	// InRTL and InSSA are the functions the build pass went through with
	// Options.Via "rtl" (the second way in), before the graph.
	InRTL, InSSA *cfg.Func

	testRuns []testRun // the reference's results on testArgs, with checking on
	buildErr error     // what the builder's checker found (checkBuild)
	// verified is the graph's Fingerprint when son.Verify accepted it
	// after the last pass that edits it (cleanup, under DropGraph), 0 if
	// not taken: a sealed graph with that fingerprint is not verified again.
	verified uint64
	// scheduled is the record of the graph gcm scheduled, for gcm's
	// checker, when the graph went before it (DropGraph, checking on).
	scheduled *gcm.GraphRecord
}

// PassStats is what -stats reports after each pass.
type PassStats struct {
	Name  string `json:"name"`
	Nodes int    `json:"nodes"`
	// Time is how long the pass itself ran, without its checks or these
	// statistics; in JSON, in nanoseconds.
	Time   time.Duration  `json:"time_ns"`
	Ops    map[string]int `json:"ops"`
	Blocks []BlockStats   `json:"blocks,omitempty"` // for the passes at the cfg level, with Options.BlockStats
	Moves  *MoveStats     `json:"moves,omitempty"`  // for outssa
	// Predicates, for gsa, is the size of the GSA form's predicates
	// (gsa.Sizes): in all, and per block of the function.
	Predicates *PredStats `json:"predicates,omitempty"`
}

// PredStats is the size of the predicates of a GSA function: the sum of
// gsa.Sizes over its blocks, and that sum divided by the number of blocks.
type PredStats struct {
	Total    int     `json:"total"`
	PerBlock float64 `json:"per_block"`
}

// BlockStats describes one basic block: its ops in order, Phis first.
type BlockStats struct {
	ID        int      `json:"id"`
	LoopDepth int      `json:"loop_depth"`
	Ops       []string `json:"ops"`
}

// MoveStats counts the moves of the outssa pass: those of the naive
// scheme (one per Phi and predecessor), those left after coalescing, and
// the cycles among them, each broken by one more move.
type MoveStats struct {
	Naive  int `json:"naive"`
	Copies int `json:"copies"`
	Cycles int `json:"cycles"`
}

// StatsReport is the JSON document of son ir -stats.
type StatsReport struct {
	Passes []PassStats `json:"passes"`
}

// CheckError is a failure of a verifier or checker: a bug in son, not in
// the program.
type CheckError struct {
	Pass  string
	Guard Guard // which guard failed
	Err   error
}

// Guard names what found a CheckError.
type Guard string

const (
	GuardPass    Guard = "pass"       // the pass itself found its work inconsistent and stopped
	GuardChecker Guard = "checker"    // the pass's own checker rejected its result
	GuardSon     Guard = "son.Verify" // the graph verifier
	GuardCfg     Guard = "cfg.Verify" // the basic-block verifier
	GuardTest    Guard = "testing"    // validation by testing: a level's result differs from the reference semantics' (testruns.go)
)

func (e *CheckError) Error() string { return fmt.Sprintf("after pass %s: %v", e.Pass, e.Err) }
func (e *CheckError) Unwrap() error { return e.Err }

// runPass runs p on u. A panic in the pass (a broken invariant of the
// graph, say) is its error, Guard pass, naming the pass: it stops the
// compilation, not the tool.
func runPass(p Pass, u *Unit) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &CheckError{Pass: p.Name, Guard: GuardPass, Err: fmt.Errorf("panic: %v", r)}
		}
	}()
	return p.run(u)
}

// Compile parses src and runs the pipeline up to o.StopAfter. A source
// error is returned as a syntax.ErrorList, a failed check as *CheckError.
func Compile(name string, src []byte, o Options) (*Unit, error) {
	passes := pipeline(o)
	last := len(passes) - 1
	if o.StopAfter != "" {
		last = -1
		for i, p := range passes {
			if p.Name == o.StopAfter {
				last = i
			}
		}
		if last < 0 {
			return nil, fmt.Errorf("unknown pass %q (passes: %v; with GSA: %s, %s)", o.StopAfter, PassNames(), GSAPasses[0].Name, GSAPasses[1].Name)
		}
	}
	u := &Unit{Name: name, Src: src, Opt: o}
	for _, p := range passes[:last+1] {
		if o.Check && p.input {
			u.Input = opt.RecordZeroCheck(u.Graph)
		}
		if o.Check && p.inputFunc && u.Func != nil {
			u.InputFunc = cloneFunc(u.Func)
		}
		start := time.Now()
		if err := runPass(p, u); err != nil {
			if rerr := rewriteError(u); rerr != nil {
				return nil, &CheckError{Pass: p.Name, Guard: GuardChecker, Err: rerr} // it came first
			}
			return nil, err
		}
		elapsed := time.Since(start)
		if o.Check {
			if err := rewriteError(u); err != nil {
				return nil, &CheckError{Pass: p.Name, Guard: GuardChecker, Err: err}
			}
		}
		var st PassStats
		graphStats := false
		if o.Check && o.DropGraph && p.Name == "gcm" && u.Func != nil && u.Graph != nil {
			// gcm's checker reads a record of the graph (gcm.RecordGraph),
			// so that the graph goes before the checker makes its tables,
			// not after: the graph, the function and those tables were the
			// pass's peak. The graph is verified first if it is not the
			// one Verify accepted (as below), counted, recorded, dropped.
			if !verifiedAsIs(u) {
				if err := son.Verify(u.Graph); err != nil {
					return nil, &CheckError{Pass: p.Name, Guard: GuardSon, Err: err}
				}
			}
			st, graphStats = Stats(u.Graph), true
			u.scheduled = gcm.RecordGraph(u.Graph)
			dropLevels(u, p.Name)
		}
		if o.Check && p.check != nil {
			if err := p.check(u); err != nil {
				return nil, &CheckError{Pass: p.Name, Guard: GuardChecker, Err: err}
			}
		}
		// The record served its checker: gone before the verifiers run, so
		// that the two are not live together (a Graph.Clone and son.Verify's
		// own tables were a third of the peak on the hostile shapes).
		u.Input, u.InputFunc = nil, nil
		if o.Check && u.Graph != nil && !verifiedAsIs(u) {
			sealNext := o.DropGraph && p.Name == "cleanup" // dropLevels seals it
			if sealNext {
				// The counts Stats takes below, taken first: Verify
				// checks them, and the fingerprint holds them.
				u.Graph.LiveOps()
			}
			if err := son.Verify(u.Graph); err != nil {
				return nil, &CheckError{Pass: p.Name, Guard: GuardSon, Err: err}
			}
			if sealNext {
				u.verified = u.Graph.Fingerprint()
			}
		}
		if o.DropGraph && p.Name == "gcm" && u.Func != nil && u.Graph != nil {
			// Nothing after this point reads the graph (cfg.Verify and the
			// test runs by cfg.Run read the function): it goes before
			// they run, not after, so that the two levels are not live
			// together at their peak.
			st, graphStats = Stats(u.Graph), true
			dropLevels(u, p.Name)
		}
		if o.Check {
			if u.Func != nil {
				if err := cfg.Verify(u.Func); err != nil {
					return nil, &CheckError{Pass: p.Name, Guard: GuardCfg, Err: err}
				}
			}
			if u.testRuns == nil {
				u.testRuns = testReference(u)
			}
			if err := checkByTesting(u); err != nil {
				return nil, &CheckError{Pass: p.Name, Guard: GuardTest, Err: err}
			}
			if p.Name == "gsa" {
				if err := checkGSAByTesting(u); err != nil {
					return nil, &CheckError{Pass: p.Name, Guard: GuardTest, Err: err}
				}
			}
		}
		u.File = nil // built, and the reference has run (Options.Via)
		switch {
		case graphStats:
		case u.Graph != nil:
			st = Stats(u.Graph)
		case len(u.Stats) > 0:
			st = u.Stats[len(u.Stats)-1] // the graph was dropped after gcm, unchanged since
			st.Blocks, st.Moves, st.Predicates = nil, nil, nil
		}
		if u.Func != nil && o.BlockStats {
			st.Blocks = blockStats(u.Func)
		}
		st.Name, st.Time = p.Name, elapsed
		if p.Name == "outssa" {
			st.Moves = &MoveStats{Naive: u.OutSSA.Naive, Copies: u.OutSSA.Copies, Cycles: u.OutSSA.Cycles}
		}
		if p.Name == "gsa" {
			st.Predicates = predStats(u.GSA)
		}
		u.Stats = append(u.Stats, st)
		if o.AfterPass != nil {
			if err := o.AfterPass(u, p.Name); err != nil {
				return nil, err
			}
		}
		if o.DropGraph {
			dropLevels(u, p.Name)
		}
	}
	return u, nil
}

// verifiedAsIs reports whether u's graph is sealed and is, by its
// fingerprint, the graph son.Verify accepted after cleanup: then Verify
// would judge it as it did, and is not run again (after gcm, where its
// tables beside the function set the pass's peak). A sealed graph panics
// at every edit through son's API; the fingerprint covers what an edit
// around it (a field written in place) would change, so that the skip
// does not rest on the seal alone (docs/ASSURANCE.md, "A sealed graph
// verified once").
func verifiedAsIs(u *Unit) bool {
	return u.verified != 0 && u.Graph.Unchanged(u.verified)
}

// dropLevels lets go of what no pass after the one named pass reads
// (Options.DropGraph): the peepholes' state after cleanup, the last pass
// that edits the graph (son.Graph.Seal); the graph after gcm, with the
// zerocheck pass's report, whose nodes reach the whole graph by their
// edges; gvn's numbering after gvn; the SSA function after outssa.
func dropLevels(u *Unit, pass string) {
	switch pass {
	case "cleanup":
		u.Graph.Seal()
	case "gcm":
		if u.Func != nil {
			u.Graph, u.GCM, u.ZeroChecks = nil, nil, nil
		}
	case "gvn":
		u.Numbering = nil
	case "outssa":
		u.SSA = nil
	}
}

// rewriteError returns what the checker of the peepholes (on with
// checking, son.Graph.CheckRewrites) found during the pass: each
// peephole step that changed a value, and each unsound type.
func rewriteError(u *Unit) error {
	if u.Graph == nil {
		return nil
	}
	return u.Graph.RewriteError()
}

// Stats counts the live nodes of g by op.
func Stats(g *son.Graph) PassStats {
	// Counted by op, then named: Op.String and a map update per node cost
	// more than the walk. Stats runs after every pass: the graph keeps
	// the counts its last sweep or walk found while it stays the same,
	// so a pass that ends with a sweep (the peephole fixpoint) or leaves
	// the graph alone costs no walk here.
	n, counts := g.LiveOps()
	st := PassStats{Nodes: n, Ops: map[string]int{}}
	for op, c := range counts {
		if c > 0 {
			st.Ops[son.Op(op).String()] += c
		}
	}
	return st
}

// blockStats describes the blocks of f.
func blockStats(f *cfg.Func) []BlockStats {
	var bs []BlockStats
	for _, b := range f.Blocks {
		st := BlockStats{ID: b.ID, LoopDepth: int(b.LoopDepth), Ops: []string{}}
		for range b.Phis {
			st.Ops = append(st.Ops, "Phi")
		}
		for _, in := range b.Instrs {
			st.Ops = append(st.Ops, in.Op.String())
		}
		bs = append(bs, st)
	}
	return bs
}

// OpNames lists the ops of a PassStats in a stable order, for printing.
func (s PassStats) OpNames() []string {
	names := make([]string, 0, len(s.Ops))
	for k := range s.Ops {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

func build(u *Unit) error {
	if u.Opt.Via != "" && u.Opt.RTL != nil {
		return buildVia(u)
	}
	f, err := syntax.Parse(u.Name, u.Src)
	if err != nil {
		return err
	}
	u.File = f
	if u.Opt.Via != "" {
		return buildVia(u)
	}
	if u.Opt.Check {
		// The builder's checker, run here rather than after the pass so
		// that its graph is gone before the real one is built: the two
		// together were the peak of son check on long chains.
		u.buildErr = validateBuild(f)
		// The reference's runs too, so that nothing after the build
		// reads the tree.
		u.testRuns = testReference(u)
	}
	// The tree goes during the build, once the builder has read it: on
	// ifs at 1 MB it was 17 of the 80 MB live where Build packs the edges
	// (issue 12; docs/PERFORMANCE.md, "build12 (fourteenth session)").
	u.File = nil
	u.Graph = son.Build(f, son.BuildOptions{ShowGraph: u.Opt.ShowGraph, NoGVN: u.Opt.NoGVN, Check: u.Opt.Check})
	u.Graph.Seed = u.Opt.Seed
	return nil
}

// checkBuild validates the builder on the program: it builds the graph
// again with no rewrite (son.BuildOptions.Raw) and has buildcheck.Validate
// check that graph against the syntax tree. The rewrites the build's
// peepholes make are not its business (see docs/ASSURANCE.md). The second
// way in (Options.Via) does not use the builder.
//
// The build pass runs it before building the graph it keeps (the result
// waits in Unit.buildErr), so that the two graphs are never live at once.
func checkBuild(u *Unit) error { return u.buildErr }

// validateBuild builds f with no rewrite and validates that graph.
func validateBuild(f *syntax.File) error {
	raw, err := rawBuild(f)
	if err != nil {
		return err
	}
	return buildcheck.Validate(f, raw)
}

// rawBuild builds f with no rewrite; a panic of the builder is an error.
func rawBuild(f *syntax.File) (g *son.Graph, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("buildcheck: the raw build panicked: %v", r)
		}
	}()
	return son.Build(f, son.BuildOptions{Raw: true}), nil
}

func peephole(u *Unit) error {
	u.Graph.PushAll()
	if err := u.Graph.Iterate(); err != nil {
		return &CheckError{Pass: "peephole", Guard: GuardPass, Err: err}
	}
	return nil
}

// cleanup is the last graph pass: peepholes; then the Refines replaced
// by their values (son.StripRefines: their facts have served, and each
// would cost a copy) and peepholes on what used them; then the merged
// returns that folded nothing split again (son.SplitReturns): the build
// merged them so that the peepholes see equal returns together; split,
// the graph is no larger than the program's own returns and the code has
// no jumps to a shared return.
func cleanup(u *Unit) error {
	if err := peephole(u); err != nil {
		return err
	}
	u.Graph.StripRefines()
	if err := u.Graph.Iterate(); err != nil {
		return &CheckError{Pass: "cleanup", Guard: GuardPass, Err: err}
	}
	u.Graph.SplitReturns()
	return nil
}

func zerocheck(u *Unit) error {
	u.ZeroChecks = opt.ZeroCheckElim(u.Graph)
	return nil
}

func checkZerocheck(u *Unit) error { return opt.CheckZeroCheckElim(u.Input, u.Graph) }

// sccp runs the analyses of the chosen mode (for Iterated, its halves
// round after round). Each solution is checked on the graph before it
// rewrites it, against the equations of the mode that ran. With checking
// on, a record of the graph taken before the analysis (opt.SCCPRecord,
// not a clone) then serves to compare the rewrite with, and the graph
// the peepholes leave with the claims.
func sccp(u *Unit) error {
	return opt.Rounds(u.Graph, u.Opt.SCCP, u.Opt.Trace, func(m opt.Mode, round int) error {
		fail := func(g Guard, err error) error {
			return &CheckError{Pass: "sccp", Guard: g, Err: opt.InRound(round, err)}
		}
		g, check := u.Graph, u.Opt.Check
		var in *opt.SCCPRecord // the checkers' record of g (not a whole clone)
		if check {
			in = opt.RecordSCCP(g)
		}
		s, err := opt.Analyze(g, m, u.Opt.Trace)
		if err != nil {
			return fail(GuardPass, err)
		}
		defer s.Release()
		if check {
			err = in.Check(g, m, s)
		} else {
			err = opt.CheckSCCP(g, m, s)
		}
		if err != nil {
			return fail(GuardChecker, err)
		}
		opt.Annotate(g, s)
		if check {
			if err := in.CheckRewrite(m, s, g); err != nil {
				return fail(GuardChecker, err)
			}
			in.Trim() // CheckApplied reads the ops and runs only
		}
		g.PushAll()
		if err := g.Iterate(); err != nil {
			return fail(GuardPass, err)
		}
		if check {
			if err := in.CheckApplied(m, s, g); err != nil {
				return fail(GuardChecker, err)
			}
		}
		return nil
	})
}

func schedule(u *Unit) error {
	if u.Opt.DropGraph {
		// Nothing reads the schedule under DropGraph (gcm's checker reads
		// the function): its arrays by node ID go as soon as they are
		// done with, before the function's are made.
		f, err := gcm.ScheduleFunc(u.Graph)
		if err != nil {
			return &CheckError{Pass: "gcm", Guard: GuardPass, Err: err}
		}
		u.SSA, u.Func = f, f
		return nil
	}
	r, err := gcm.Schedule(u.Graph)
	if err != nil {
		return &CheckError{Pass: "gcm", Guard: GuardPass, Err: err}
	}
	u.SSA, u.Func, u.GCM = r.Func, r.Func, r
	return nil
}

// checkSchedule runs gcm's checker on the function and the graph, or on
// the record of the graph taken before the graph went (Options.DropGraph
// with checking on: Compile).
func checkSchedule(u *Unit) error {
	if r := u.scheduled; r != nil {
		u.scheduled = nil
		return gcm.CheckRecord(r, u.Func)
	}
	return gcm.Check(u.Graph, u.Func)
}

// valueNumbering numbers u.Func and rewrites it only if the validator
// (always run, not only with checking on) accepts the numbering.
func valueNumbering(u *Unit) error {
	p, err := gvn.Number(u.Func)
	if err != nil {
		return &CheckError{Pass: "gvn", Guard: GuardPass, Err: err}
	}
	return applyNumbering(u, p)
}

// applyNumbering validates p against u.Func and applies it.
func applyNumbering(u *Unit, p *gvn.Proposal) error {
	v, err := gvn.Validate(u.Func, p)
	if err != nil {
		return &CheckError{Pass: "gvn", Guard: GuardChecker, Err: err}
	}
	u.Numbering = v.Numbering()
	v.Apply()
	return nil
}

// checkNumbering compares the function recorded before gvn with the one
// it left, under the numbering the validator accepted.
func checkNumbering(u *Unit) error { return gvn.CheckRewrite(u.InputFunc, u.Func, u.Numbering) }

// outOfSSA translates the latest cfg function, which is then the SSA
// function of the unit.
func outOfSSA(u *Unit) error {
	if u.Func == nil {
		return &CheckError{Pass: "outssa", Guard: GuardPass, Err: fmt.Errorf("outssa: no function at the cfg level")}
	}
	u.SSA = u.Func
	translate := outssa.Translate
	if u.Opt.DropGraph {
		// Nothing after the pass reads the SSA function (below): it
		// becomes the RTL one, not copied.
		translate = outssa.TranslateInPlace
	}
	r, err := translate(u.SSA)
	if err != nil {
		return &CheckError{Pass: "outssa", Guard: GuardPass, Err: err}
	}
	u.OutSSA, u.Func = r, r.Func
	if u.Opt.DropGraph {
		// Nothing after the pass reads the SSA function, and its checker
		// reads its own record (InputFunc): gone before the checker and
		// the verifiers run, not after.
		u.SSA = nil
	}
	return nil
}

// checkOutOfSSA compares the SSA function recorded before the pass with
// the RTL function it made.
func checkOutOfSSA(u *Unit) error { return outssa.Check(u.InputFunc, u.Func) }
