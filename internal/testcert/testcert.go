// Package testcert makes a throwaway certificate authority and a server
// certificate it signed, for localhost and 127.0.0.1, so that tests of TLS
// need no files from anywhere. It is for tests only: the keys are ECDSA
// P-256 made on the spot and the certificates last a day.
package testcert

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"time"
)

// Pair is a CA and a server certificate it signed, in PEM and ready for
// crypto/tls.
type Pair struct {
	CAPEM   []byte // the CA's certificate (a client's root)
	CertPEM []byte // the server's certificate
	KeyPEM  []byte // the server's private key, PKCS #8
	Cert    tls.Certificate
}

// New makes a CA and a server certificate for localhost and 127.0.0.1.
func New() (*Pair, error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "zproxy test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "localhost"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, KeyUsage: x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	p := &Pair{
		CAPEM:   pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		KeyPEM:  pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}),
	}
	p.Cert, err = tls.X509KeyPair(p.CertPEM, p.KeyPEM)
	return p, err
}

// NonLoopbackIPv4 returns an IPv4 address of this machine that is not
// loopback, for tests of what a server does with clients from elsewhere; ok
// is false when there is none.
func NonLoopbackIPv4() (ip string, ok bool) {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return "", false
	}
	for _, a := range addrs {
		if n, isNet := a.(*net.IPNet); isNet && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP.String(), true
		}
	}
	return "", false
}
