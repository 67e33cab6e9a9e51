package catalog

import "testing"

// The expected hashes are PostgreSQL 15's (hashint4extended(5, seed) ...
// with partbounds.c's seed).
func TestPartitionHashFunctions(t *testing.T) {
	tests := []struct {
		name string
		got  uint64
		want int64
	}{
		{"int4", HashUint32Extended(5, hashPartitionSeed), -2840406021921404358},
		{"int4 seed 0", HashUint32Extended(5, 0), -9138765687874534020},
		{"int8", hashInt8Extended(-7, hashPartitionSeed), -7298374200968567817},
		{"text 13 bytes", hashBytesExtended([]byte("hello world!!"), hashPartitionSeed), 7458898085804086944},
		{"text 3 bytes", hashBytesExtended([]byte("abc"), hashPartitionSeed), 3628778498291917250},
	}
	for _, tc := range tests {
		if int64(tc.got) != tc.want {
			t.Errorf("%s: got %d, want %d", tc.name, int64(tc.got), tc.want)
		}
	}
}
