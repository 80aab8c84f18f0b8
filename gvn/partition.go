// The partition refined by splitting, in Hopcroft's manner, that Number
// uses. Cost: a split is proportional to the members marked.

package gvn

// partition is a partition of the values 0..n-1 into classes, refined by
// splitting, as in Hopcroft's minimization of automata: the members of a
// class are a segment of elems, so that moving the marked members of a
// class to the front of its segment and cutting the segment there splits
// it in time proportional to the members marked, not to the class.
type partition struct {
	elems  []int32 // the values, class by class
	loc    []int32 // loc[v]: the index of v in elems
	class  []int32 // class[v]: the class of v
	start  []int32 // start[c], end[c]: the segment of elems holding class c
	end    []int32
	marked []int32 // marked[c]: members of c moved to the front by mark
	inWork []bool  // inWork[c]: c is on the worklist
	work   []int32 // classes waiting to be used as splitters
	dirty  []int32 // classes with marked members
}

// newPartition makes the partition whose class c holds the values v with
// label[v] == c, for labels 0..nClasses-1, every class on the worklist.
// The partition keeps label as its array of classes, which it changes.
func newPartition(label []int32, nClasses int) *partition {
	n := len(label)
	p := &partition{
		elems:  make([]int32, n),
		loc:    make([]int32, n),
		class:  label,
		start:  make([]int32, nClasses, nClasses+n/4+1),
		end:    make([]int32, nClasses, nClasses+n/4+1),
		marked: make([]int32, nClasses, nClasses+n/4+1),
		inWork: make([]bool, nClasses, nClasses+n/4+1),
		work:   make([]int32, 0, nClasses),
	}
	for _, c := range label {
		p.end[c]++
	}
	sum := int32(0)
	for c := range nClasses {
		size := p.end[c]
		p.start[c], p.end[c] = sum, sum
		sum += size
	}
	for v, c := range label {
		i := p.end[c]
		p.end[c]++
		p.elems[i], p.loc[v] = int32(v), i
	}
	for c := nClasses - 1; c >= 0; c-- {
		p.inWork[c] = true
		p.work = append(p.work, int32(c))
	}
	return p
}

// members returns the values of class c. The slice is elems itself: it
// changes as classes split.
func (p *partition) members(c int32) []int32 { return p.elems[p.start[c]:p.end[c]] }

// size returns the number of values in class c.
func (p *partition) size(c int32) int32 { return p.end[c] - p.start[c] }

// mark moves v to the marked front of its class. Marking a value twice
// between splits is a bug of the caller: it must deduplicate.
func (p *partition) mark(v int32) {
	c := p.class[v]
	if p.marked[c] == 0 {
		p.dirty = append(p.dirty, c)
	}
	to := p.start[c] + p.marked[c]
	p.marked[c]++
	from := p.loc[v]
	w := p.elems[to]
	p.elems[to], p.elems[from] = v, w
	p.loc[v], p.loc[w] = to, from
}

// split cuts the marked members off each class that has some and also
// has unmarked ones, into a new class, and puts on the worklist the new
// class if the old one is there, else the smaller of the two (Hopcroft:
// every value is then in a splitter used O(log n) times).
func (p *partition) split() {
	for _, c := range p.dirty {
		k := p.marked[c]
		p.marked[c] = 0
		if k == p.size(c) {
			continue
		}
		n := int32(len(p.start))
		p.start = append(p.start, p.start[c])
		p.end = append(p.end, p.start[c]+k)
		p.marked = append(p.marked, 0)
		p.inWork = append(p.inWork, false)
		p.start[c] += k
		for _, v := range p.members(n) {
			p.class[v] = n
		}
		switch {
		case p.inWork[c] || p.size(n) <= p.size(c):
			p.push(n)
		default:
			p.push(c)
		}
	}
	p.dirty = p.dirty[:0]
}

func (p *partition) push(c int32) {
	if !p.inWork[c] {
		p.inWork[c] = true
		p.work = append(p.work, c)
	}
}

// pop takes a class off the worklist, or returns -1.
func (p *partition) pop() int32 {
	if len(p.work) == 0 {
		return -1
	}
	c := p.work[len(p.work)-1]
	p.work = p.work[:len(p.work)-1]
	p.inWork[c] = false
	return c
}
