package main

// Catalogue is the campaign's list of deliberate bugs: each a small edit
// of one pass's source of the kind a person could make, never of a guard
// (a verifier, a checker or an interpreter). Pass names the pipeline pass
// whose work the edit breaks: "build" for the builder, "peephole" for the
// peephole rules and the types they compute (which also run while
// building and after sccp), "sccp", "zerocheck", "gcm", "cfg emission"
// for the instructions and terminators gcm writes, "isel" for instruction
// selection and "regalloc" for the register allocator, which the probe
// runs after the last pass, as son check does. Each later pass adds its own faults here.
var Catalogue = []Fault{
	// ---- the builder (son/build.go) ----
	{
		Name: "build-branch-sides-swapped", Pass: "build", File: "son/build.go",
		Old:  "t = b.hold(g.peepNew(OpCProj, 0, syntax.Pos{}, iff))\n\tf = b.hold(g.peepNew(OpCProj, 1, syntax.Pos{}, iff))",
		New:  "t = b.hold(g.peepNew(OpCProj, 1, syntax.Pos{}, iff))\n\tf = b.hold(g.peepNew(OpCProj, 0, syntax.Pos{}, iff))",
		What: "every branch takes its true side on a false condition and the reverse",
	},
	{
		Name: "build-geq-not-swapped", Pass: "build", File: "son/build.go",
		Old:  "if tok == syntax.GTR || tok == syntax.GEQ {",
		New:  "if tok == syntax.GTR {",
		What: "a >= b is built as a <= b: the operands of >= are not swapped",
	},
	{
		Name: "build-div-unpinned", Pass: "build", File: "son/build.go",
		Old:  "return g.peepNew(op, 0, pos, ctrl, x, y)",
		New:  "return g.peepNew(op, 0, pos, nil, x, y)",
		What: "a division is built after its ZeroCheck but not pinned below it",
	},
	{
		Name: "build-check-dividend", Pass: "build", File: "son/build.go",
		Old:  "ctrl = g.peepNew(OpZeroCheck, 0, pos, b.ctrl(), y)",
		New:  "ctrl = g.peepNew(OpZeroCheck, 0, pos, b.ctrl(), x)",
		What: "the ZeroCheck before a division checks the dividend, not the divisor",
	},
	{
		Name: "build-loop-phi-entry-twice", Pass: "build", File: "son/build.go",
		Old:  "for i, v := range assigned {\n\t\tg.SetIn(phis[i], 2, b.get(v))",
		New:  "for i := range assigned {\n\t\tg.SetIn(phis[i], 2, phis[i].In[1])",
		What: "a loop Phi takes the entry value again on the back edge, not the body's",
	},
	{
		Name: "build-land-short-one", Pass: "build", File: "son/build.go",
		Old:  "shortVal := g.Con(b2i(!land))",
		New:  "shortVal := g.Con(1)",
		What: "a && b is 1, not 0, when a is false",
	},
	{
		Name: "build-bool-unmasked", Pass: "build", File: "son/build.go",
		Old:  "if x.Type().IsA(types.Bool) {\n\t\treturn x\n\t}\n\treturn b.g.peepNew(OpAnd, 0, syntax.Pos{}, nil, x, b.g.Con(1))",
		New:  "if x.Type().IsInt() {\n\t\treturn x\n\t}\n\treturn b.g.peepNew(OpAnd, 0, syntax.Pos{}, nil, x, b.g.Con(1))",
		What: "a value stored in a bool keeps all its bits: the test asks for an int, not a bool",
	},
	{
		Name: "build-else-sees-then", Pass: "build", File: "son/build.go",
		Old:  "b.restore(before)\n\tb.setCtrl(f)",
		New:  "b.drop(before)\n\tb.setCtrl(f)",
		What: "the else arm starts with the variables the then arm left, not those from before the if",
	},

	// ---- peephole rules (son/idealize.go) ----
	{
		Name: "peep-sub-fold-sign", Pass: "peephole", File: "son/idealize.go",
		Old:  "return g.addConst(a, k-c)",
		New:  "return g.addConst(a, k+c)",
		What: "(a+k)-c folds to a+(k+c): a wrong fold",
	},
	{
		Name: "peep-add-hoist-sign", Pass: "peephole", File: "son/idealize.go",
		Old:  "return g.addConst(g.Peephole(g.binary(OpAdd, x, a)), k)",
		New:  "return g.addConst(g.Peephole(g.binary(OpAdd, x, a)), -k)",
		What: "x+(a+k) becomes (x+a)-k when the constant is moved up",
	},
	{
		Name: "peep-sub-cancel-wrong-operand", Pass: "peephole", File: "son/idealize.go",
		Old:  "return x.In[2] // (y+b)-y → b",
		New:  "return x.In[1] // (y+b)-y → b",
		What: "(y+b)-y folds to y instead of b",
	},
	{
		Name: "peep-mul-minus-one", Pass: "peephole", File: "son/idealize.go",
		Old:  "return g.NewNode(OpMinus, 0, nil, x) // x*-1 → -x",
		New:  "return x // x*-1 → -x",
		What: "x*-1 folds to x",
	},
	{
		Name: "peep-div-unpinned", Pass: "peephole", File: "son/idealize.go",
		Old:  "if n.In[0] != nil && y.Type().ExcludesZero() && !restsOnRefine(y) {",
		New:  "if n.In[0] != nil && y.Type().IsInt() && !restsOnRefine(y) {",
		What: "a division floats free of its ZeroCheck whenever its divisor is an integer, zero or not",
	},
	{
		Name: "peep-zerocheck-upper-bound", Pass: "peephole", File: "son/idealize.go",
		Old:  "if n.In[1].Type().ExcludesZero() && !restsOnRefine(n.In[1]) || dominatedNonZero(n.In[0], n.In[1]) {",
		New:  "if n.In[1].Type().IsInt() && n.In[1].Type().Hi() != 0 && !restsOnRefine(n.In[1]) || dominatedNonZero(n.In[0], n.In[1]) {",
		What: "a ZeroCheck goes away when its divisor's range does not end at 0, even if it holds 0",
	},
	{
		Name: "peep-not-lt-strict", Pass: "peephole", File: "son/idealize.go",
		Old:  "return g.binary(OpLe, x.In[2], x.In[1]) // !(a<b) → b<=a",
		New:  "return g.binary(OpLt, x.In[2], x.In[1]) // !(a<b) → b<=a",
		What: "!(a<b) becomes b<a: off by one at equality",
	},
	{
		Name: "peep-pull-mod-any-divisor", Pass: "peephole", File: "son/idealize.go",
		Old:  "if (op == OpDiv || op == OpMod) && x.In[2] != first.In[2] {",
		New:  "if op == OpDiv && x.In[2] != first.In[2] {",
		What: "Phi(R, a%b, c%d) is pulled to Phi(a,c)%Phi(b,d): a remainder's divisor Phi may hold 0",
	},
	{
		Name: "peep-phi-collapse-unchecked", Pass: "peephole", File: "son/idealize.go",
		Old:  "if live != nil && live != x {\n\t\t\t\tlive = nil\n\t\t\t\tbreak\n\t\t\t}\n",
		New:  "",
		What: "a Phi collapses into its last live value without checking that the others are the same",
	},
	{
		Name: "peep-region-phi-arity", Pass: "peephole", File: "son/idealize.go",
		Old:  "if !phi.dead { // removing an input of one Phi may kill another",
		New:  "if phi.dead { // removing an input of one Phi may kill another",
		What: "a region drops a dead input but its Phis keep the matching value",
	},
	{
		Name: "peep-cproj-live-other-side", Pass: "peephole", File: "son/idealize.go",
		Old:  "iff.Type().Elem(int(n.Aux)).IsCtrl() && iff.Type().Elem(int(1-n.Aux)).IsXCtrl()",
		New:  "iff.Type().Elem(int(n.Aux)).IsCtrl()",
		What: "a projection of an If collapses into the If's control even when the other side is live",
	},
	{
		Name: "peep-diamond-with-phis", Pass: "peephole", File: "son/idealize.go",
		Old:  "len(n.In) == 3 && len(n.Phis()) == 0",
		New:  "len(n.In) == 3",
		What: "an if-else diamond with Phis is removed as if it were empty: the Phis lose their condition",
	},
	{
		Name: "peep-mask-off-by-one", Pass: "peephole", File: "son/idealize.go",
		Old:  "^x.Type().Zeros()&^uint64(c) == 0:",
		New:  "(^x.Type().Zeros()&^uint64(c))>>1 == 0:",
		What: "x & c folds to x when the one bit x may have and c clears is bit 0: an off-by-one mask",
	},
	{
		Name: "peep-self-compare-lt", Pass: "peephole", File: "son/idealize.go",
		Old:  "if n.Op == OpEq || n.Op == OpLe {",
		New:  "if n.Op == OpEq || n.Op == OpLt {",
		What: "x<x folds to 1 and x<=x to 0",
	},
	{
		Name: "peep-swap-noncommutative", Pass: "peephole", File: "son/idealize.go",
		Old:  "if n.Op.IsCommutative() && g.swapConstRight(n) {",
		New:  "if g.swapConstRight(n) {",
		What: "3 < x has its operands swapped to x < 3 as if < were commutative",
	},
	{
		Name: "peep-shift-count-32", Pass: "peephole", File: "son/idealize.go",
		Old:  "y.Aux&63 == 0",
		New:  "y.Aux&31 == 0",
		What: "x << 32 folds to x: shift counts taken mod 32",
	},

	{
		Name: "peep-if-on-eq-value", Pass: "peephole", File: "son/idealize.go",
		Old:  "if c := g.lookIn(n, 1); c.Op == OpNe && c.In[2].IsConst() && c.In[2].Aux == 0 {",
		New:  "if c := g.lookIn(n, 1); (c.Op == OpNe || c.Op == OpEq) && c.In[2].IsConst() && c.In[2].Aux == 0 {",
		What: "an If on x == 0, too, branches on x itself: its sides swapped",
	},
	{
		Name: "peep-both-sides-phis-ignored", Pass: "peephole", File: "son/idealize.go",
		Old:  "if p.In[i] != p.In[j] {\n\t\t\t\tg.addDep(p, n)",
		New:  "if false {\n\t\t\t\tg.addDep(p, n)",
		What: "both sides of an If entering a Region merge even when a Phi tells them apart",
	},
	{
		Name: "peep-flatten-phi-repeats", Pass: "peephole", File: "son/idealize.go",
		Old:  "if v.Op == OpPhi && v.In[0] == r {\n\t\t\t\tvs = v.In[1:]",
		New:  "if false {\n\t\t\t\tvs = v.In[1:]",
		What: "a flattened Region's Phi repeats the inner Phi instead of taking its values",
	},
	{
		Name: "peep-split-returns-first-value", Pass: "peephole", File: "son/returns.go",
		Old:  "if x.Op == OpPhi && x.In[0] == reg {\n\t\t\t\tv = x.In[i]",
		New:  "if x.Op == OpPhi && x.In[0] == reg {\n\t\t\t\tv = x.In[1]",
		What: "split returns all return the value of the first path",
	},

	// ---- facts from the branch taken (son/refine.go, son/build.go) ----
	{
		Name: "refine-le-off-by-one", Pass: "peephole", File: "son/refine.go",
		Old:  "return types.Join(t, types.Range(math.MinInt64, y.Hi()))",
		New:  "return types.Join(t, types.Range(math.MinInt64, y.Hi()-1))",
		What: "below a branch proving x <= y, x is taken to be below y",
	},
	{
		Name: "refine-negation-lt", Pass: "peephole", File: "son/refine.go",
		Old:  "var negation = [...]rel{relNe, relEq, relGe, relGt, relLe, relLt}",
		New:  "var negation = [...]rel{relNe, relEq, relGt, relGt, relLe, relLt}",
		What: "the false side of x < y is taken to prove x > y, not x >= y",
	},
	{
		Name: "refine-converse-lt", Pass: "peephole", File: "son/refine.go",
		Old:  "var converse = [...]rel{relEq, relNe, relGt, relGe, relLt, relLe}",
		New:  "var converse = [...]rel{relEq, relNe, relLt, relGe, relLt, relLe}",
		What: "y < x is read as y-side fact x < y: the operands of a comparison swapped",
	},
	{
		Name: "build-refine-leaks", Pass: "build", File: "son/build.go",
		Old:  "b.refs = b.refs[:len(b.refs)-len(rs)]\n\tfor _, r := range rs {",
		New:  "b.refs = b.refs[:len(b.refs)-len(rs)]\n\tfor _, r := range rs[:0] {",
		What: "a variable refined in an arm keeps its Refine after the if: the fact leaks to the other path",
	},
	{
		Name: "strip-refine-no-reguard", Pass: "peephole", File: "son/refine.go",
		Old:  "g.relax(work)\n\tg.reguard()",
		New:  "g.relax(work)",
		What: "a division whose check went on a branch's fact, the branch then folded on a Refine's fact, is left unguarded when the Refines go",
	},
	{
		Name: "zerocheck-rests-on-refine-ignored", Pass: "peephole", File: "son/refine.go",
		Old:  "if y.Op == OpConstant {\n\t\treturn false",
		New:  "if true {\n\t\treturn false",
		What: "a division by a value computed from a Refine loses its ZeroCheck on the strength of a fact that cleanup drops",
	},
	{
		Name: "zerocheck-any-branch", Pass: "peephole", File: "son/nonzero.go",
		Old:  "return sideProves(p, p.Aux, x) })",
		New:  "return p.In[0].Op == OpIf && x != nil })",
		What: "a ZeroCheck below any side of an If goes, whatever the branch proves",
	},
	{
		Name: "zerocheck-branch-wrong-side", Pass: "peephole", File: "son/nonzero.go",
		Old:  "return sideProves(p, p.Aux, x) })",
		New:  "return sideProves(p, 1-p.Aux, x) })",
		What: "a ZeroCheck goes on what the other side of the branch above it proves: the division is left pinned to the side where its divisor may be 0",
	},

	// ---- types of the peephole and of sccp (son/compute.go) ----
	{
		Name: "type-add-range-off-by-one", Pass: "peephole", File: "son/compute.go",
		Old:  "return types.Range(a.Lo()+b.Lo(), a.Hi()+b.Hi())",
		New:  "return types.Range(a.Lo()+b.Lo(), a.Hi()+b.Hi()-1)",
		What: "the range of a+b ends one below its largest value",
	},
	{
		Name: "type-sub-range-swapped", Pass: "peephole", File: "son/compute.go",
		Old:  "return types.Range(a.Lo()-b.Hi(), a.Hi()-b.Lo())",
		New:  "return types.Range(a.Lo()-b.Lo(), a.Hi()-b.Hi())",
		What: "the range of a-b subtracts the bounds of b in the wrong order",
	},
	{
		Name: "type-lt-at-equality", Pass: "peephole", File: "son/compute.go",
		Old:  "case a.Hi() < b.Lo():\n\t\t\treturn types.True",
		New:  "case a.Hi() <= b.Lo():\n\t\t\treturn types.True",
		What: "a<b is typed true when the ranges only touch: a wrong type for a comparison",
	},
	{
		Name: "type-eq-touching-ranges", Pass: "peephole", File: "son/compute.go",
		Old:  "case OpEq:\n\t\tif a.Hi() < b.Lo() || b.Hi() < a.Lo() {",
		New:  "case OpEq:\n\t\tif a.Hi() <= b.Lo() || b.Hi() < a.Lo() {",
		What: "a==b is typed false when a's range ends where b's starts",
	},
	{
		Name: "type-mod-divisor-sign", Pass: "peephole", File: "son/compute.go",
		Old:  "case a.Hi() <= 0:\n\t\treturn types.Range(max(a.Lo(), -mb), 0)",
		New:  "case a.Hi() <= 0:\n\t\treturn types.Range(0, mb)",
		What: "the remainder of a negative dividend is typed non-negative",
	},
	{
		Name: "type-div-negative-divisor", Pass: "peephole", File: "son/compute.go",
		Old:  "if a.Lo() >= 0 && b.Lo() >= 0 {\n\t\treturn types.Range(0, a.Hi())",
		New:  "if a.Lo() >= 0 && b.Hi() >= 0 {\n\t\treturn types.Range(0, a.Hi())",
		What: "a quotient is typed non-negative when the divisor may be negative",
	},
	{
		Name: "type-shl-overflow", Pass: "peephole", File: "son/compute.go",
		Old:  "lo>>s == a.Lo() && hi>>s == a.Hi()",
		New:  "lo <= hi",
		What: "the range of x<<k ignores overflow",
	},
	{
		Name: "type-phi-skips-last", Pass: "peephole", File: "son/compute.go",
		Old:  "for i := 1; i < len(n.In) && i < len(r.In); i++ {",
		New:  "for i := 1; i < len(n.In)-1 && i < len(r.In); i++ {",
		What: "a Phi's type meets all its values but the last (a loop's back edge): an off-by-one",
	},

	{
		Name: "type-bits-and-ones-either", Pass: "peephole", File: "son/compute.go",
		Old:  "z, o = az|bz, ao&bo",
		New:  "z, o = az|bz, ao|bo",
		What: "known bits: a bit known 1 in either operand of & is taken as 1 in the result",
	},
	{
		Name: "type-bits-shl-fill", Pass: "peephole", File: "son/compute.go",
		Old:  "z, o = az<<s|lowMask(int(s)), ao<<s",
		New:  "z, o = az<<s|lowMask(int(s)+1), ao<<s",
		What: "known bits: x<<k claims one low bit too many known 0",
	},
	{
		Name: "type-bits-eq-conflict", Pass: "peephole", File: "son/compute.go",
		Old:  "if ao&bz != 0 || az&bo != 0 {",
		New:  "if ao&bz != 0 || az&bo == 0 {",
		What: "known bits: == is folded to false unless a known bit conflicts",
	},
	{
		Name: "type-bits-meet-keeps-ones", Pass: "peephole", File: "types/types.go",
		Old:  "return reduce(min(t.lo, u.lo), max(t.hi, u.hi), t.zeros&u.zeros, t.ones&u.ones)",
		New:  "return reduce(min(t.lo, u.lo), max(t.hi, u.hi), t.zeros&u.zeros, t.ones|u.ones)",
		What: "known bits: the meet of two types keeps the bits known 1 on either side, not on both",
	},

	// ---- the peephole driver and value numbering (son/peephole.go, son/gvntable.go) ----
	{
		Name: "peep-gvn-ignores-aux", Pass: "peephole", File: "son/gvntable.go",
		Old:  "aux: n.Aux, in: n.In}",
		New:  "in: n.In}",
		What: "value numbering ignores Aux: nodes differing only in it are merged",
	},
	{
		Name: "peep-gvn-sorts-every-op", Pass: "peephole", File: "son/gvntable.go",
		Old:  "k.op.IsCommutative() && nodeID(k.in[1])",
		New:  "nodeID(k.in[1])",
		What: "value numbering sorts the operands of every op, so a-b and b-a meet",
	},
	{
		Name: "peep-kill-used", Pass: "peephole", File: "son/peephole.go",
		Old:  "if r != n && !n.dead && n.Unused() {",
		New:  "if r != n && !n.dead {",
		What: "a replaced node is killed even though it still has users",
	},

	// ---- sccp (opt/sccp.go) ----
	{
		Name: "sccp-const-branch-one-side", Pass: "sccp", File: "opt/sccp.go",
		Old:  "case son.OpIf, son.OpNever:\n\t\t\t\treturn types.Tuple(types.Ctrl, types.Ctrl)",
		New:  "case son.OpIf, son.OpNever:\n\t\t\t\treturn types.Tuple(types.Ctrl, types.XCtrl)",
		What: "constant propagation alone (-sccp const, iterated) marks every false side dead: a branch wrongly marked dead",
	},
	{
		Name: "sccp-widen-keeps-old", Pass: "sccp", File: "opt/sccp.go",
		Old:  "\treturn types.Range(lo, hi)\n}",
		New:  "\treturn old\n}",
		What: "widening returns the old range: the value stops falling before its fixpoint",
	},
	{
		Name: "sccp-phi-not-revisited", Pass: "sccp", File: "opt/sccp.go",
		Old:  "if ctrl && u.Op.IsRegion() {",
		New:  "if ctrl && u.Op == son.OpLoop {",
		What: "a Phi of a Region is not evaluated again when one of its region's inputs becomes reachable",
	},
	{
		Name: "sccp-ctrl-starts-reachable", Pass: "sccp", File: "opt/sccp.go",
		Old:  "case n.IsControl():\n\t\t\ts.t.Set(i, types.XCtrl)",
		New:  "case n.IsControl():\n\t\t\ts.t.Set(i, types.Ctrl)",
		What: "control starts reachable, not unreachable: a constant wrongly propagated through dead paths",
	},
	{
		Name: "sccp-worklist-flag-stuck", Pass: "sccp", File: "opt/sccp.go",
		Old:  "n := live[i]\n\t\ton[i] = false",
		New:  "n := live[i]\n\t\ton[i] = true",
		What: "a node taken off the worklist stays marked as on it, and is never evaluated again",
	},
	{
		Name: "sccp-widen-lower-kept", Pass: "sccp", File: "opt/sccp.go",
		Old:  "lo = math.MinInt64",
		New:  "lo = old.Lo()",
		What: "widening puts a falling lower bound back to the old one instead of the end of int",
	},

	// ---- zerocheck (opt/zerocheck.go) ----
	{
		Name: "zc-any-witness", Pass: "zerocheck", File: "opt/zerocheck.go",
		Old:  "if w := checking[k]; w != 0 {",
		New:  "w := checking[k]\n\t\tfor _, cw := range checking {\n\t\t\tif w == 0 {\n\t\t\t\tw = cw\n\t\t\t}\n\t\t}\n\t\tif w != 0 {",
		What: "a check is removed under a dominating check of any value: the wrong witness",
	},
	{
		Name: "zc-any-witness-misreported", Pass: "zerocheck", File: "opt/zerocheck.go",
		Old:  "if w := checking[k]; w != 0 {\n\t\t\tfound = append(found, Removal{Check: n, Value: x, Witness: c.node(int(w - 1))})",
		New:  "w := checking[k]\n\t\tfor _, cw := range checking {\n\t\t\tif w == 0 {\n\t\t\t\tw = cw\n\t\t\t}\n\t\t}\n\t\tif w != 0 {\n\t\t\tfound = append(found, Removal{Check: n, Value: c.node(int(w - 1)).In[1], Witness: c.node(int(w - 1))})",
		What: "the wrong witness, and the removal reports the witness's value as the check's (issue 11's example)",
	},
	{
		Name: "zc-witness-not-forgotten", Pass: "zerocheck", File: "opt/zerocheck.go",
		Old:  "if f.x != 0 {\n\t\t\tchecking[f.x-1] = 0\n\t\t}",
		New:  "",
		What: "a check is not forgotten when the walk leaves its subtree: a non-dominating witness",
	},
	{
		Name: "zc-removed-as-witness", Pass: "zerocheck", File: "opt/zerocheck.go",
		Old:  "found = append(found, Removal{Check: n, Value: x, Witness: c.node(int(w - 1))})\n\t\t} else {",
		New:  "found = append(found, Removal{Check: n, Value: x, Witness: c.node(int(w - 1))})\n\t\t\tchecking[k] = int32(v) + 1\n\t\t} else {",
		What: "a removed check becomes the witness of the checks below it",
	},
	{
		Name: "zc-branch-other-side", Pass: "zerocheck", File: "opt/zerocheck.go",
		Old:  "son.ProvedNonZero(n.In[0].In[1], n.Aux, func(x *son.Node) {",
		New:  "son.ProvedNonZero(n.In[0].In[1], 1-n.Aux, func(x *son.Node) {",
		What: "a check is removed below the side of a branch opposite to the one that proves its value is not 0",
	},
	{
		Name: "zc-branch-division-above-branch", Pass: "zerocheck", File: "opt/zerocheck.go",
		Old:  "g.SetIn(u, 0, r.Pred)",
		New:  "g.SetIn(u, 0, r.Side.In[0].In[0])",
		What: "a division whose check a branch's fact removed is pinned above the branch, to the If's control",
	},
	{
		Name: "zc-divs-not-repinned", Pass: "zerocheck", File: "opt/zerocheck.go",
		Old:  "g.SetIn(u, 0, r.Witness)\n",
		New:  "",
		What: "the divisions of a removed check are not pinned to its witness (they fall to its predecessor)",
	},
	{
		Name: "zc-mod-not-repinned", Pass: "zerocheck", File: "opt/zerocheck.go",
		Old:  "if (u.Op == son.OpDiv || u.Op == son.OpMod) && u.In[0] == r.Check {",
		New:  "if u.Op == son.OpDiv && u.In[0] == r.Check {",
		What: "a removed check's remainders are not pinned to its witness (they fall to its predecessor), nor reported",
	},
	{
		Name: "zc-ctrl-edges-first-only", Pass: "zerocheck", File: "opt/zerocheck.go",
		Old:  "\t\t\t\tadd(u)\n\t\t\t}\n\t\t\tc.succ = append(c.succ, c.index[u.ID]-1)",
		New:  "\t\t\t\tadd(u)\n\t\t\t\tc.succ = append(c.succ, c.index[u.ID]-1)\n\t\t\t}",
		What: "the control graph keeps only the edge by which each node is first found: a wrong dominator at every merge",
	},

	// ---- gcm (gcm/gcm.go, gcm/blocks.go, gcm/order.go) ----
	{
		Name: "gcm-checks-hoisted-to-entry", Pass: "gcm", File: "gcm/blocks.go",
		Old:  "sk.checks = append(sk.checks, s)\n\t\t\t\tb.c1 = int32(len(sk.checks))\n\t\t\t\tsk.of[s.ID] = bk",
		New:  "sk.checks = append(sk.checks, s)\n\t\t\t\tfound[0].c1 = int32(len(sk.checks))\n\t\t\t\tsk.of[s.ID] = 1",
		What: "every ZeroCheck is hoisted to the entry block, above its branch, and recorded there in the block map",
	},
	{
		Name: "gcm-branch-succs-swapped", Pass: "gcm", File: "gcm/blocks.go",
		Old:  "sk.edges[b.s0+int32(idx)] = get(p)",
		New:  "sk.edges[b.s0+int32(1-idx)] = get(p)",
		What: "a branch's successors are in the wrong order: the false block first",
	},
	{
		Name: "gcm-phi-use-skips-first", Pass: "gcm", File: "gcm/gcm.go",
		Old:  "if i := n.UseIndex(k); i >= 1 {",
		New:  "if i := n.UseIndex(k); i >= 2 {",
		What: "late placement skips a Phi's first value (a loop's entry): an off-by-one",
	},
	{
		Name: "gcm-phi-args-reversed", Pass: "gcm", File: "gcm/gcm.go",
		Old:  "args[i] = s.regAt(phi.In[1+k], preds[k])",
		New:  "args[len(args)-1-i] = s.regAt(phi.In[1+k], preds[k])",
		What: "a Phi's arguments are written in reverse order of its predecessors",
	},
	{
		Name: "gcm-phi-args-unpermuted", Pass: "gcm", File: "gcm/gcm.go",
		Old:  "for i, k := range perm {\n\t\t\t\targs[i] = s.regAt(phi.In[1+k], preds[k])",
		New:  "for i := range perm {\n\t\t\t\targs[i] = s.regAt(phi.In[1+i], preds[i])",
		What: "a Phi's arguments stay in region order while its block's predecessors are sorted",
	},
	{
		Name: "gcm-lca-deeper", Pass: "gcm", File: "gcm/gcm.go",
		Old:  "return s.sk.blocks[s.tree.LCA(int(a.index), int(b.index))]",
		New:  "return s.deeper(a, b)",
		What: "the common dominator of two uses is the deeper of them: a wrong dominator",
	},
	{
		Name: "gcm-shallowest-past-early", Pass: "gcm", File: "gcm/gcm.go",
		Old:  "for v != stop && v != 0 {",
		New:  "for v != 0 {",
		What: "the search for the shallowest block goes on past the early block, up to the entry",
	},
	{
		Name: "gcm-early-ignores-pin", Pass: "gcm", File: "gcm/gcm.go",
		Old:  "if c := n.Ctrl(); c != nil && c.IsControl() && n.Op != son.OpProj {\n\t\t\t\tb = s.deeper(b, s.sk.blockOf(c))\n\t\t\t}\n",
		New:  "",
		What: "schedule early ignores a division's ZeroCheck: the division may rise above it",
	},
	{
		Name: "gcm-phi-use-in-merge", Pass: "gcm", File: "gcm/gcm.go",
		Old:  "return s.sk.blockOf(r.head.In[i])",
		New:  "return r",
		What: "a Phi's use counts in the Phi's block, not at the end of the matching predecessor",
	},
	{
		Name: "gcm-deeper-inverted", Pass: "gcm", File: "gcm/gcm.go",
		Old:  "s.tree.Depth(int(b.index)) > s.tree.Depth(int(a.index))",
		New:  "s.tree.Depth(int(b.index)) < s.tree.Depth(int(a.index))",
		What: "schedule early takes the shallower of its inputs' blocks",
	},
	{
		Name: "gcm-late-ignores-control-uses", Pass: "gcm", File: "gcm/gcm.go",
		Old:  "if b := s.sk.blockOf(u); b != nil && u.Op != son.OpNever {",
		New:  "if b := s.sk.blockOf(u); b != nil && u.Op == son.OpNever {",
		What: "late placement ignores uses by branches, returns and checks: a value may sink below them",
	},
	{
		Name: "gcm-checks-reversed", Pass: "gcm", File: "gcm/order.go",
		Old:  "deps = append(deps, [2]int32{int32(i - 1), int32(i)}) // the checks keep the order of the chain",
		New:  "deps = append(deps, [2]int32{int32(i), int32(i - 1)}) // the checks keep the order of the chain",
		What: "the ZeroChecks of a block are ordered last first",
	},
	{
		Name: "gcm-ready-one-early", Pass: "gcm", File: "gcm/order.go",
		Old:  "if waits[u]--; waits[u] == 0 {",
		New:  "if waits[u]--; waits[u] <= 1 {",
		What: "the local schedule takes a node as ready while it still waits for one input",
	},

	// ---- cfg emission (gcm/gcm.go: emit and instr) ----
	{
		Name: "emit-operands-swapped", Pass: "cfg emission", File: "gcm/gcm.go",
		Old:  "i.Args[0], i.Args[1] = s.regAt(n.In[1], b.index), s.regAt(n.In[2], b.index)",
		New:  "i.Args[0], i.Args[1] = s.regAt(n.In[2], b.index), s.regAt(n.In[1], b.index)",
		What: "every binary instruction gets its operands in reverse order",
	},
	{
		Name: "emit-shr-as-sar", Pass: "cfg emission", File: "gcm/gcm.go",
		Old:  "son.OpShl: cfg.OpShl, son.OpSar: cfg.OpSar, son.OpShr: cfg.OpShr,",
		New:  "son.OpShl: cfg.OpShl, son.OpSar: cfg.OpSar, son.OpShr: cfg.OpSar,",
		What: ">>> is emitted as >>: a wrong entry in the op table",
	},
	{
		Name: "emit-const-32-bit", Pass: "cfg emission", File: "gcm/gcm.go",
		Old:  "i.Op, i.Aux, i.Dst = cfg.OpConst, n.Aux, s.dstAt(n, b)",
		New:  "i.Op, i.Aux, i.Dst = cfg.OpConst, int64(int32(n.Aux)), s.dstAt(n, b)",
		What: "constants are emitted truncated to 32 bits",
	},
	{
		Name: "emit-no-position", Pass: "cfg emission", File: "gcm/gcm.go",
		Old:  "*i = cfg.Instr{Dst: cfg.Reg(n.ID), Pos: n.Pos, Node: n.ID}",
		New:  "*i = cfg.Instr{Dst: cfg.Reg(n.ID), Node: n.ID}",
		What: "instructions lose their source position: a division by zero is reported nowhere",
	},
	{
		Name: "emit-neg-as-not", Pass: "cfg emission", File: "gcm/gcm.go",
		Old:  "i.Op, i.Args = cfg.OpNeg, a.regs(1)",
		New:  "i.Op, i.Args = cfg.OpNot, a.regs(1)",
		What: "-x is emitted as !x",
	},

	// ---- gvn (gvn/number.go, gvn/rewrite.go) ----
	{
		Name: "gvn-label-ignores-op", Pass: "gvn", File: "gvn/number.go",
		Old:  "l = label{kind: 1, op: val.op, aux: val.aux, n: n}",
		New:  "l = label{kind: 1, aux: val.aux, n: n}",
		What: "the initial partition forgets the op: two different ops with congruent arguments share a class",
	},
	{
		Name: "gvn-label-ignores-phi-block", Pass: "gvn", File: "gvn/number.go",
		Old:  "l = label{kind: 2, block: val.block, n: n}",
		New:  "l = label{kind: 2, n: n}",
		What: "the initial partition forgets a Phi's block: Phis of different blocks are merged",
	},
	{
		Name: "gvn-avail-not-forgotten", Pass: "gvn", File: "gvn/number.go",
		Old:  "for _, c := range undo[fr.undo:] {",
		New:  "for _, c := range undo[len(undo):] {",
		What: "leaving a subtree of the dominator tree forgets nothing: a value is replaced by a non-dominating definition",
	},
	{
		Name: "gvn-sub-commutative", Pass: "gvn", File: "gvn/number.go",
		Old:  "case cfg.OpAdd, cfg.OpMul, cfg.OpAnd, cfg.OpOr, cfg.OpXor, cfg.OpEq, cfg.OpNe:",
		New:  "case cfg.OpAdd, cfg.OpSub, cfg.OpMul, cfg.OpAnd, cfg.OpOr, cfg.OpXor, cfg.OpEq, cfg.OpNe:",
		What: "commutativity is applied to Sub: a-b and b-a are numbered alike",
	},
	{
		Name: "gvn-copyprop-any-unary", Pass: "gvn", File: "gvn/rewrite.go",
		Old:  "if in.Op == cfg.OpCopy && len(in.Args) == 1 {",
		New:  "if len(in.Args) == 1 {",
		What: "copy propagation takes every one-argument instruction (Neg, Not) for a copy: its uses read its argument",
	},

	// ---- outssa (outssa/outssa.go, outssa/parmove.go) ----
	{
		Name: "outssa-swap-in-sequence", Pass: "outssa", File: "outssa/parmove.go",
		Old:  "seq = append(seq, Move{Dst: tmp, Src: src[j]})\n\t\t\t\t\tsrc[j] = tmp\n",
		New:  "",
		What: "a cycle of moves is done in sequence, without saving a register in the temporary: a swap loses a value",
	},
	{
		Name: "outssa-phi-use-not-live-out", Pass: "outssa", File: "outssa/outssa.go",
		Old:  "if u.atEnd {\n\t\t\t\tmarkOut(u.block)\n\t\t\t}",
		New:  "",
		What: "a Phi argument is not live at the end of its predecessor: the lost-copy problem",
	},
	{
		Name: "outssa-live-after-reversed", Pass: "outssa", File: "outssa/outssa.go",
		Old:  "return found && l[k].last > d.index",
		New:  "return found && l[k].last < d.index",
		What: "a register used later in the block of a definition is not live after it: interfering registers are coalesced",
	},
	{
		Name: "outssa-first-move-dropped", Pass: "outssa", File: "outssa/outssa.go",
		Old:  "for _, m := range seq {",
		New:  "for _, m := range seq[min(1, len(seq)):] {",
		What: "the first move of each sequentialized parallel move is dropped",
	},
	{
		Name: "outssa-const-from-dst", Pass: "outssa", File: "outssa/outssa.go",
		Old:  "moves = append(moves, Move{Dst: dst, Const: t.constVal[a]})",
		New:  "moves = append(moves, Move{Dst: dst, Const: t.constVal[d]})",
		What: "a constant source is moved with the constant of the destination's slot (0), not its own",
	},

	// ---- gated SSA (loops/, gsa/), run with Options.GSA by the probe ----
	{
		Name: "gsa-gamma-overlap", Pass: "gsa", File: "gsa/paths.go",
		Old:  "return pred.NewNot(c)",
		New:  "return pred.NewOr(c, pred.NewNot(c))",
		What: "the false edge of a branch is guarded by c ∨ ¬c: the predicates of the two sides of a γ overlap",
	},
	{
		Name: "gsa-pred-missing-condition", Pass: "gsa", File: "gsa/paths.go",
		Old:  "return pred.NewNot(c)",
		New:  "return pred.Const(pred.True)",
		What: "a path predicate misses the condition of a false edge: a γ's else side is guarded by its dominator's path alone",
	},
	{
		Name: "gsa-eta-wrong-exit-pred", Pass: "gsa", File: "gsa/build.go",
		Old:  "p := m.use(a.Pos[outer[i].Header], i)",
		New:  "p := m.use(a.Pos[outer[i].Header], a.Pos[f.Blocks[i].Preds[0]])",
		What: "the η of a μ at a loop exit is guarded by the path to the exit's source, without the exit condition",
	},
	{
		Name: "gsa-rename-at-header", Pass: "gsa", File: "gsa/build.go",
		Old:  "Renamed{Reg: r, At: i}",
		New:  "Renamed{Reg: r, At: a.Pos[l.Header]}",
		What: "R places the η register of a μ at the loop header, not at the exit: uses inside the loop are renamed to it",
	},
	{
		Name: "loops-close-skips-phis", Pass: "loops", File: "loops/close.go",
		Old:  "for _, p := range b.Phis {\n\t\t\tdefs = append(defs, p.Dst)\n\t\t}\n",
		New:  "",
		What: "loop-closing forgets the registers a loop's Phis define: a μ is read after the loop directly, not through a pad",
	},

	// ---- register allocation (regalloc/regalloc.go, spill.go), run by the probe
	// after the last pass as son check runs it, checked by regalloc.Check;
	// testdata/spill_*.smp make it spill ----
	{
		Name: "regalloc-free-one-early", Pass: "regalloc", File: "regalloc/spill.go",
		Old:  "return until[p] < s && !a.fixedConflict(p, s, e)",
		New:  "return until[p] <= s+1 && !a.fixedConflict(p, s, e)",
		What: "a register is free one position before its occupant's last read: an interval that starts there clobbers a live register",
	},
	{
		Name: "regalloc-fixed-only-at-start", Pass: "regalloc", File: "regalloc/regalloc.go",
		Old:  "return k < int32(len(segs)) && segs[k][0] <= e",
		New:  "return k < int32(len(segs)) && segs[k][0] <= s",
		What: "a physical register's fixed segment blocks an interval only at its start: a division's rax or rdx clobbers a virtual register living there",
	},
	{
		Name: "regalloc-hint-ignores-interference", Pass: "regalloc", File: "regalloc/spill.go",
		Old:  "if p >= 0 && a.allocatable(p) && free(p) {",
		New:  "if p >= 0 && a.allocatable(p) {",
		What: "a Move's hint is taken even when the hinted register is occupied: the two sides share a register while both are live",
	},
	{
		Name: "regalloc-two-address-not-reloaded", Pass: "regalloc", File: "regalloc/spill.go",
		Old:  "if contains(wuses, r) {",
		New:  "if contains(wuses, r) && !contains(wdefs, r) {",
		What: "a spilled register an instruction reads and writes (a two-address operand) is not reloaded before it: a missing reload",
	},
	{
		Name: "regalloc-store-next-slot", Pass: "regalloc", File: "regalloc/regalloc.go",
		Old:  "Edit{Dst: SlotLoc(w.slot()), Src: a.loc(a.regs[w.off])}",
		New:  "Edit{Dst: SlotLoc((w.slot() + 1) % a.slots), Src: a.loc(a.regs[w.off])}",
		What: "a spilled register is stored to the next stack slot (the last to the first), another register's: a wrong spill slot",
	},
	{
		Name: "regalloc-reload-next-slot", Pass: "regalloc", File: "regalloc/regalloc.go",
		Old:  "before = append(before, Edit{Dst: a.loc(a.regs[w.off+int32(w.nu)]), Src: SlotLoc(w.slot())})",
		New:  "before = append(before, Edit{Dst: a.loc(a.regs[w.off+int32(w.nu)]), Src: SlotLoc((w.slot() + 1) % a.slots)})",
		What: "a spilled register is reloaded from the next stack slot (the last from the first), another register's: a wrong spill slot",
	},
	{
		Name: "regalloc-split-written-loop", Pass: "regalloc", File: "regalloc/spill.go",
		Old:  "return i < len(ps) && ps[i] <= g.e",
		New:  "return i < len(ps) && ps[i] <= g.s",
		What: "a loop counts as writing a spilled register only if its header block does: a loop that writes it in its body reads it through a copy reloaded on entry, stale after the write",
	},
	{
		Name: "regalloc-split-reload-after-jumps", Pass: "regalloc", File: "regalloc/spill.go",
		Old:  "i := len(ws)\n\t\t\tfor i > 0 && ws[i-1].branch() {\n\t\t\t\ti--\n\t\t\t}\n",
		New:  "i := len(ws)\n",
		What: "a loop's copy of a spilled register is reloaded after the jumps of a block entering the loop, not before them: a block that jumps into the loop leaves the reload to its fall-through",
	},
	{
		Name: "regalloc-past-temp-first-register", Pass: "regalloc", File: "regalloc/spill.go",
		Old:  "case te < s:\n\t\ta.assign[t] = int32(p)\n",
		New:  "case te < s:\n\t\ta.assign[t] = int32(a.f.Allocatable[0])\n",
		What: "a spilled register's temporaries before the point of spilling take the first allocatable register, not the one the register held alone there: a reload or store clobbers a live register",
	},
	{
		Name: "regalloc-past-move-source-live", Pass: "regalloc", File: "regalloc/spill.go",
		Old:  "if q < 0 || !m.use && a.end[other] != d-1 {",
		New:  "if q < 0 {",
		What: "a Move's temporary of its spilled destination, before the point of spilling, takes the source's register even where the source lives on after the Move: the store's value clobbers the source",
	},

	// ---- instruction selection (amd64/isel.go), run by the probe after
	// the last pass as son check runs it, checked by amd64.CheckSelection ----
	{
		Name: "isel-cmp-swap-keeps-cond", Pass: "isel", File: "amd64/isel.go",
		Old:  "a, b, c = b, a, swapped(c)",
		New:  "a, b = b, a",
		What: "a comparison whose first operand is an immediate is emitted with its operands swapped but its condition kept: k < x becomes x < k",
	},
	{
		Name: "isel-magic-shift-off-by-one", Pass: "isel", File: "amd64/isel.go",
		Old:  "return m, p - 64",
		New:  "return m, p - 63",
		What: "the shift of a division by a constant's magic number is one too many: the quotient is halved",
	},
	{
		Name: "isel-branch-fallthrough-not-inverted", Pass: "isel", File: "amd64/isel.go",
		Old:  "s.jump(JCC, c.Invert(), e)",
		New:  "s.jump(JCC, c, e)",
		What: "a branch whose true side is the next block jumps to its false side on the condition, not on its negation",
	},
	{
		Name: "isel-pow2-bias-short", Pass: "isel", File: "amd64/isel.go",
		Old:  "s.op2(SHR, vr(t), vimm(64-k))",
		New:  "s.op2(SHR, vr(t), vimm(65-k))",
		What: "the bias of a division by 2^k is 2^(k-1)-1 for a negative dividend, not 2^k-1: the quotient rounds down instead of toward zero",
	},
	{
		Name: "isel-div32-dividend-unchecked", Pass: "isel", File: "amd64/isel.go",
		Old:  "s.op2(CMP, vr(rax), vimm(1<<31-1))\n\ts.coldBranch(&cb)\n",
		New:  "",
		What: "a division by a register takes the 32-bit div when the divisor fits, whatever the dividend: a negative or large dividend is divided as its low 32 bits, unsigned",
	},
}
