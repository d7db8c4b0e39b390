package loops

import (
	"context"
	"errors"
	"net"
	"syscall"
	"time"
)

// Binding a local address asks no dependency: a loop that waits for a
// port to come free retries nothing remote.

// Look-alike: the listen is retried while the address is in use.
func listenWhenFree(addr string) (net.Listener, error) {
	var l net.Listener
	var err error
	for range 20 {
		l, err = net.Listen("tcp", addr)
		if errors.Is(err, syscall.EADDRINUSE) {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		break
	}
	return l, err
}

// Look-alike: the same through a ListenConfig, and through a function of
// the package that only listens.
func listenConfigured(ctx context.Context, addr string) (net.Listener, error) {
	var lc net.ListenConfig
	for i := 0; ; i++ {
		l, err := lc.Listen(ctx, "tcp", addr)
		if err == nil || i == 5 {
			return l, err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func bind(addr string) (net.PacketConn, error) { return net.ListenPacket("udp", addr) }

func bindWhenFree(addr string) (net.PacketConn, error) {
	for i := 0; i < 5; i++ {
		if c, err := bind(addr); err == nil {
			return c, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, errors.New("address in use")
}

// The dial beside them is a retry: it asks the peer.
func dialWhenUp(addr string) (net.Conn, error) {
	for i := 0; i < 5; i++ { // want `loop \[5 attempts\] delay=fixed$`
		if c, err := net.Dial("tcp", addr); err == nil {
			return c, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, errors.New("peer down")
}
