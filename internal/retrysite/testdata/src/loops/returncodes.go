package loops

import (
	"errors"
	"net"
	"time"
)

// Success that needs a return code (issue 30): a dial, then a handshake
// on the connection that answers a code beside an error. The loop leaves
// on one declared code only, so any other is no success.

const (
	codeAccepted = 0x00
	codeRefused  = 0x05
	codeNetwork  = 0xFE
)

// handshake asks the broker to accept the session and returns its code.
func handshake(c net.Conn) (byte, error) {
	if _, err := c.Write([]byte{1}); err != nil {
		return codeNetwork, err
	}
	b := make([]byte, 1)
	if _, err := c.Read(b); err != nil {
		return codeNetwork, err
	}
	if b[0] != codeAccepted {
		return b[0], errors.New("session refused")
	}
	return b[0], nil
}

// Each broker in turn: a dial that fails goes on to the next, and so does
// a refused handshake; an accepted one leaves.
func connectAnyBroker(brokers []string) (net.Conn, error) {
	var rc byte
	var err error
	var c net.Conn
	for _, broker := range brokers { // want `loop \[len\(brokers\) attempts\] delay=none$`
		c, err = net.Dial("tcp", broker)
		if err != nil {
			rc = codeNetwork
			continue
		}
		rc, err = handshake(c)
		if rc == codeAccepted {
			break
		}
		c.Close()
	}
	if rc != codeAccepted {
		return nil, err
	}
	return c, nil
}

// The code is the attempt's own: a refusal goes round with the errors.
type sessionAPI interface {
	Open(addr string) (byte, error)
}

func openSession(api sessionAPI, addr string) error {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] delay=fixed dep=api$`
		rc, err := api.Open(addr)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		if rc == codeAccepted {
			return nil
		}
	}
	return errors.New("no session")
}

// Look-alike: the errors leave and only a refusal goes round, a wait for
// the broker to accept, not a retry.
func awaitAccepted(api sessionAPI, addr string) error {
	for {
		rc, err := api.Open(addr)
		if err != nil {
			return err
		}
		if rc == codeAccepted {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// Look-alike: the state is read without an error, so it says nothing of
// how a call went; a dial that succeeds goes round whenever the state is
// not ready, and the loop is no retry.
type brokerState interface {
	State() byte
}

func dialWhenReady(brokers []string, s brokerState) (net.Conn, error) {
	for _, broker := range brokers {
		c, err := net.Dial("tcp", broker)
		if err != nil {
			continue
		}
		if st := s.State(); st == codeAccepted {
			return c, nil
		}
		c.Close()
	}
	return nil, errors.New("no broker")
}

// Look-alike: a number compared with a literal is no declared code (a
// count of zero, say), so it says nothing of success either.
func dialUntilZero(brokers []string, api sessionAPI) (net.Conn, error) {
	for _, broker := range brokers {
		c, err := net.Dial("tcp", broker)
		if err != nil {
			continue
		}
		if rc, _ := api.Open(broker); rc == 0 {
			return c, nil
		}
		c.Close()
	}
	return nil, errors.New("no broker")
}
