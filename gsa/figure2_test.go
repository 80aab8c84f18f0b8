package gsa

// figure2SSA is paper 004's running example (testdata/figure2.smp) at the
// SSA level, prepared by loops.Prepare, as gsa_test.go built it before the
// builder merged a Region used only by another Region into it: one
// junction per else, so two nested γs (b8, b9), which the hand-broken
// constructions of check_test.go need; the build now gives one γ (b8).
const figure2SSA = `func figure2 level SSA
b1:  ; entry, depth 0
	v4 = Arg
	v6 = Const 1
	v15 = Const 9
	v21 = Const 2
	v24 = Const 50
	jump b2
b2:  ; preds b1 b9, depth 1
	v8 = Phi v6 v38          ; line 7
	v9 = Phi v6 v39          ; line 7
	v10 = Lt v9 v4           ; line 7
	branch v10 b3 b11        ; line 7
b3:  ; preds b2, depth 1
	v16 = Lt v8 v15          ; line 8
	branch v16 b4 b5         ; line 8
b4:  ; preds b3, depth 1
	v22 = Add v8 v21         ; line 8
	jump b9
b5:  ; preds b3, depth 1
	v25 = Lt v24 v8          ; line 9
	branch v25 b6 b7         ; line 9
b6:  ; preds b5, depth 1
	v30 = Add v8 v6          ; line 9
	jump b8
b7:  ; preds b5, depth 1
	v32 = Mul v8 v21         ; line 10
	jump b8
b8:  ; preds b6 b7, depth 1
	v35 = Phi v30 v32        ; line 9
	jump b9
b9:  ; preds b4 b8, depth 1
	v38 = Phi v22 v35        ; line 8
	v39 = Add v9 v6          ; line 7
	jump b2
b11:  ; preds b2, depth 0
	v40 = Phi v8
	jump b10
b10:  ; preds b11, depth 0
	return v40               ; line 11
`
