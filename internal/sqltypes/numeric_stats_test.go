package sqltypes

import (
	"math/big"
	"math/rand"
	"testing"

	"github.com/cockroachdb/apd/v3"
)

// TestNumericVarianceProperty checks NumericMoments against the exact
// rational variance: the result is the exact value rounded to its own
// scale (within half a unit in the last place), for random sets of
// integers and decimals.
func TestNumericVarianceProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(14))
	for iter := 0; iter < 500; iter++ {
		var m NumericMoments
		n := 1 + rng.Intn(12)
		scale := rng.Intn(4)
		sum, sum2 := new(big.Rat), new(big.Rat)
		for i := 0; i < n; i++ {
			c := rng.Int63n(2_000_000) - 1_000_000
			d := apd.New(c, int32(-scale))
			if err := m.Add(NewNumeric(d)); err != nil {
				t.Fatal(err)
			}
			x := new(big.Rat).SetFrac(big.NewInt(c), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))
			sum.Add(sum, x)
			sum2.Add(sum2, new(big.Rat).Mul(x, x))
		}
		for _, sample := range []bool{false, true} {
			got, err := m.Variance(sample, false)
			if err != nil {
				t.Fatal(err)
			}
			if sample && n == 1 {
				if !got.IsNull() {
					t.Fatalf("var_samp of one value = %v, want NULL", got)
				}
				continue
			}
			nr := new(big.Rat).SetInt64(int64(n))
			num := new(big.Rat).Sub(new(big.Rat).Mul(nr, sum2), new(big.Rat).Mul(sum, sum))
			den := new(big.Rat).Mul(nr, nr)
			if sample {
				den = new(big.Rat).Mul(nr, new(big.Rat).SetInt64(int64(n-1)))
			}
			want := new(big.Rat).Quo(num, den)
			gotRat, ok := new(big.Rat).SetString(FormatText(got))
			if !ok {
				t.Fatalf("unparsable %s", FormatText(got))
			}
			s, _ := NumericScale(got)
			ulp := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s)), nil))
			diff := new(big.Rat).Abs(new(big.Rat).Sub(gotRat, want))
			if diff.Cmp(new(big.Rat).Mul(ulp, big.NewRat(1, 2))) > 0 {
				t.Fatalf("variance(sample=%v) = %s, exact %s", sample, FormatText(got), want.FloatString(30))
			}
		}
	}
}
