package e2e

import (
	"net"
	"net/netip"
	"slices"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestNetworkRoundTrip writes inet, cidr, macaddr and macaddr8 values as
// pgx sends them (netip.Prefix parameters in each exec mode, binary COPY
// with a net.HardwareAddr), reads them back in key order, and checks
// inet_client_addr and inet_server_port against the connection.
func TestNetworkRoundTrip(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	ctx := testCtx(t)
	setup := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	tg.CreateTable(t, setup, `CREATE TABLE net_rt (addr INET PRIMARY KEY, net CIDR, mac MACADDR, mac8 MACADDR8)`)

	mac := func(s string) net.HardwareAddr {
		m, err := net.ParseMAC(s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	addrs := []string{"10.0.0.1/32", "10.0.0.0/8", "::1/128", "192.168.1.5/24"}
	for i, mode := range execModes {
		conn := tg.Connect(t, mode)
		a := netip.MustParsePrefix(addrs[i])
		// A net.HardwareAddr is a []byte, which the exec modes that do
		// not describe the statement send as bytea: the MACs go as text.
		if _, err := conn.Exec(ctx, "INSERT INTO net_rt VALUES ($1, $2, $3, $4)", a, a.Masked(), "08:00:2b:01:02:0"+strconv.Itoa(i),
			"08:00:2b:01:02:03:04:0"+strconv.Itoa(i)); err != nil {
			t.Fatalf("%v: insert %s: %v", mode, a, err)
		}
	}
	if _, err := setup.CopyFrom(ctx, pgx.Identifier{"net_rt"}, []string{"addr", "net", "mac"},
		pgx.CopyFromRows([][]any{{netip.MustParsePrefix("2001:db8::1/64"), netip.MustParsePrefix("2001:db8::/64"), mac("ff:ff:ff:ff:ff:ff")}})); err != nil {
		t.Fatalf("copy: %v", err)
	}

	rows, err := setup.Query(ctx, "SELECT addr, net, mac::text, addr::text FROM net_rt WHERE addr <<= '10.0.0.0/8' OR addr << '2001:db8::/32' ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var a, n netip.Prefix
		var m, text string
		if err := rows.Scan(&a, &n, &m, &text); err != nil {
			t.Fatal(err)
		}
		got = append(got, a.String()+" "+n.String()+" "+m+" "+text)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"10.0.0.0/8 10.0.0.0/8 08:00:2b:01:02:01 10.0.0.0/8",
		"10.0.0.1/32 10.0.0.1/32 08:00:2b:01:02:00 10.0.0.1/32",
		"2001:db8::1/64 2001:db8::/64 ff:ff:ff:ff:ff:ff 2001:db8::1/64",
	}
	if !slices.Equal(got, want) {
		t.Errorf("rows: %q, want %q", got, want)
	}

	// The connection's ends, as pg_stat_activity lists them too.
	var client, server netip.Addr
	var port int32
	var listed bool
	if err := setup.QueryRow(ctx, `SELECT inet_client_addr(), inet_server_addr(), inet_server_port(),
		(SELECT client_addr = inet_client_addr() AND client_port = inet_client_port() FROM pg_stat_activity WHERE pid = pg_backend_pid())`).
		Scan(&client, &server, &port, &listed); err != nil {
		t.Fatal(err)
	}
	cfg := setup.Config()
	if !client.IsLoopback() || !server.IsLoopback() || strconv.Itoa(int(port)) != strconv.Itoa(int(cfg.Port)) || !listed {
		t.Errorf("client %s, server %s:%d (connected to port %d), listed %v", client, server, port, cfg.Port, listed)
	}
}
