package executor

import (
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The window functions proper, by the name the registry of package
// builtins gives them (it types them); aggregates used with OVER are
// computed by their accumulators (aggregate.go) over each frame.

// windowFunc computes one window function.
type windowFunc struct {
	// compute sets the function's value of every row of a partition, in
	// column col (the partition's peers are known).
	compute func(p *partition, col int) error
	// step, for the functions computed as the rows stream by in order
	// (windowStream), gives the value of the stream's next row.
	step func(s *windowStream) sqltypes.Value
}

// windowFuncs are the window functions, filled from init.
var windowFuncs = map[string]windowFunc{}

func init() {
	windowFuncs["row_number"] = windowFunc{
		compute: func(p *partition, col int) error {
			for i := range p.idx {
				p.set(i, col, sqltypes.NewInt(int64(i+1)))
			}
			return nil
		},
		step: func(s *windowStream) sqltypes.Value { return sqltypes.NewInt(s.before + 1) },
	}
	windowFuncs["rank"] = windowFunc{
		compute: func(p *partition, col int) error {
			for i := range p.idx {
				p.set(i, col, sqltypes.NewInt(int64(p.peerStart[i]+1)))
			}
			return nil
		},
		step: func(s *windowStream) sqltypes.Value { return sqltypes.NewInt(s.start + 1) },
	}
	windowFuncs["percent_rank"] = windowFunc{compute: func(p *partition, col int) error {
		n := len(p.idx)
		for i := 0; i < n; i++ {
			rank := int64(p.peerStart[i] + 1)
			if n > 1 {
				p.set(i, col, sqltypes.NewFloat(float64(rank-1)/float64(n-1)))
			} else {
				p.set(i, col, sqltypes.NewFloat(0))
			}
		}
		return nil
	}}
	windowFuncs["dense_rank"] = windowFunc{
		compute: func(p *partition, col int) error {
			rank := int64(0)
			for i := range p.idx {
				if p.peerStart[i] == i {
					rank++
				}
				p.set(i, col, sqltypes.NewInt(rank))
			}
			return nil
		},
		step: func(s *windowStream) sqltypes.Value { return sqltypes.NewInt(s.groups) },
	}
	windowFuncs["cume_dist"] = windowFunc{compute: func(p *partition, col int) error {
		n := len(p.idx)
		for i := 0; i < n; i++ {
			p.set(i, col, sqltypes.NewFloat(float64(p.peerEnd[i])/float64(n)))
		}
		return nil
	}}
	windowFuncs["ntile"] = windowFunc{compute: ntile}
	windowFuncs["lag"] = windowFunc{compute: func(p *partition, col int) error { return p.offsetValue(col, -1) }}
	windowFuncs["lead"] = windowFunc{compute: func(p *partition, col int) error { return p.offsetValue(col, 1) }}
	windowFuncs["first_value"] = windowFunc{compute: func(p *partition, col int) error {
		return p.frameValue(col, func(int) (int64, bool, error) { return 1, true, nil })
	}}
	windowFuncs["last_value"] = windowFunc{compute: func(p *partition, col int) error {
		return p.frameValue(col, func(int) (int64, bool, error) { return -1, true, nil })
	}}
	windowFuncs["nth_value"] = windowFunc{compute: func(p *partition, col int) error {
		return p.frameValue(col, func(i int) (int64, bool, error) {
			v, err := p.arg(1, i)
			if err != nil || v.IsNull() {
				return 0, false, err
			}
			if v.I <= 0 {
				return 0, false, pgerr.New(pgerr.InvalidArgumentForNthValue, "argument of nth_value must be greater than zero")
			}
			return v.I, true, nil
		})
	}}
}

// ntile numbers the partition's rows into the argument's number of
// buckets.
func ntile(p *partition, col int) error {
	n := len(p.idx)
	for i := 0; i < n; i++ {
		v, err := p.arg(0, i)
		if err != nil {
			return err
		}
		if v.IsNull() {
			p.set(i, col, sqltypes.Null)
			continue
		}
		k := v.I
		if k <= 0 {
			return pgerr.New(pgerr.InvalidArgumentForNtile, "argument of ntile must be greater than zero")
		}
		// PostgreSQL: the first n % k buckets hold one row more.
		per, extra := int64(n)/k, int64(n)%k
		pos, bucket := int64(i), int64(0)
		if per == 0 {
			bucket = pos
		} else if pos < extra*(per+1) {
			bucket = pos / (per + 1)
		} else {
			bucket = extra + (pos-extra*(per+1))/per
		}
		p.set(i, col, sqltypes.NewInt(bucket+1))
	}
	return nil
}

// offsetValue is lag (dir -1) and lead (dir 1): the value offset rows
// away (default 1), else the default argument or NULL.
func (p *partition) offsetValue(col int, dir int64) error {
	c := p.call
	n := len(p.idx)
	for i := 0; i < n; i++ {
		off := int64(1)
		if len(c.Args) > 1 {
			v, err := p.arg(1, i)
			if err != nil {
				return err
			}
			if v.IsNull() {
				p.set(i, col, sqltypes.Null)
				continue
			}
			off = v.I
		}
		j := int64(i) + dir*off
		var v sqltypes.Value
		var err error
		switch {
		case j >= 0 && j < int64(n):
			v, err = p.arg(0, int(j))
		case len(c.Args) > 2:
			v, err = p.arg(2, i)
		default:
			v = sqltypes.Null
		}
		if err != nil {
			return err
		}
		p.set(i, col, v)
	}
	return nil
}

// frameValue is first_value, last_value and nth_value: the value at the
// k-th row of each row's frame (k < 0 counts from its end), where nth
// gives k for row i, or false for a NULL result.
func (p *partition) frameValue(col int, nth func(i int) (int64, bool, error)) error {
	for i := range p.idx {
		lo, hi, err := p.frame(i)
		if err != nil {
			return err
		}
		if hi < lo {
			hi = lo
		}
		k, ok, err := nth(i)
		if err != nil {
			return err
		}
		pos := -1
		if ok {
			pos = p.nthInFrame(i, lo, hi, k)
		}
		if pos < 0 {
			p.set(i, col, sqltypes.Null)
			continue
		}
		v, err := p.arg(0, pos)
		if err != nil {
			return err
		}
		p.set(i, col, v)
	}
	return nil
}
