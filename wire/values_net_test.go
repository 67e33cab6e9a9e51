package wire

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestNetworkTypesBinaryErrors checks network_recv's and macaddr_recv's
// refusals (22P03) of malformed input; what they accept is checked against
// PostgreSQL's bytes in binaryPGCases.
func TestNetworkTypesBinaryErrors(t *testing.T) {
	tests := []struct {
		typ      sqltypes.Type
		hex, msg string
	}{
		{sqltypes.TypeInet, "0720000401020304", `invalid address family in external "inet" value`},
		{sqltypes.TypeInet, "0221000401020304", `invalid bits in external "inet" value`},
		{sqltypes.TypeInet, "0220001001020304", `invalid length in external "inet" value`},
		{sqltypes.TypeInet, "022000040102", "incorrect binary data format"},
		{sqltypes.TypeInet, "0220", "incorrect binary data format"},
		{sqltypes.TypeCidr, "020801040a000001", `invalid external "cidr" value`},
		{sqltypes.TypeMacAddr, "08002b0102", "incorrect binary data format"},
		{sqltypes.TypeMacAddr8, "08002b01020304", "incorrect binary data format"},
	}
	for _, tc := range tests {
		src, _ := hex.DecodeString(tc.hex)
		_, err := DecodeBinary(tc.typ, src)
		var pe *pgerr.Error
		if !errors.As(err, &pe) || pe.Code != pgerr.InvalidBinaryRepresentation || !strings.Contains(pe.Message, tc.msg) {
			t.Errorf("recv %s %s: %v, want 22P03 %q", tc.typ, tc.hex, err, tc.msg)
		}
	}
}
