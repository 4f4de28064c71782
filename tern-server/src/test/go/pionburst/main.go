// Command pionburst is a second, independent TURN client for Tern's tests, built on pion/turn
// (Debian's golang-github-pion-turn.v2-dev, compiled offline in GOPATH mode). It opens many UDP
// allocations at once and keeps a window of messages in flight through each of them to a local
// echo peer: first as Send indications (answered as Data indications), then over a bound channel
// (ChannelData both ways). It prints one line per phase with what was sent, echoed back and lost.
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/logging"
	"github.com/pion/stun"
	"github.com/pion/turn/v2"
)

type counts struct {
	sent, received, lost int64
}

func main() {
	server := flag.String("server", "127.0.0.1:3478", "TURN server host:port (UDP)")
	user := flag.String("user", "", "username")
	pass := flag.String("pass", "", "password")
	realm := flag.String("realm", "", "realm")
	allocations := flag.Int("allocations", 32, "allocations opened at once")
	window := flag.Int("window", 8, "messages in flight per allocation")
	size := flag.Int("size", 1400, "message bytes")
	rounds := flag.Int("rounds", 25, "rounds of a full window per allocation and phase")
	wait := flag.Duration("wait", time.Second, "how long a round waits for its echoes")
	flag.Parse()

	peer, err := listen()
	if err != nil {
		log.Fatalf("echo peer: %v", err)
	}
	go echo(peer)
	peerAddr := peer.LocalAddr().(*net.UDPAddr)

	clients := make([]*turn.Client, *allocations)
	relays := make([]net.PacketConn, *allocations)
	var setup sync.WaitGroup
	var failed int32
	for i := 0; i < *allocations; i++ {
		setup.Add(1)
		go func(i int) {
			defer setup.Done()
			client, relay, err := allocate(*server, *user, *pass, *realm)
			if err != nil {
				log.Printf("allocation %d: %v", i, err)
				atomic.StoreInt32(&failed, 1)
				return
			}
			clients[i], relays[i] = client, relay
		}(i)
	}
	setup.Wait()
	if failed != 0 {
		os.Exit(2)
	}
	defer func() {
		for i := range clients {
			relays[i].Close()
			clients[i].Close()
		}
	}()

	for _, phase := range []string{"send", "channel"} {
		var total counts
		var running sync.WaitGroup
		for i := 0; i < *allocations; i++ {
			running.Add(1)
			go func(i int) {
				defer running.Done()
				c, err := exchange(phase, clients[i], relays[i], peerAddr, *window, *size, *rounds, *wait)
				if err != nil {
					log.Printf("%s phase, allocation %d: %v", phase, i, err)
					atomic.StoreInt32(&failed, 1)
				}
				atomic.AddInt64(&total.sent, c.sent)
				atomic.AddInt64(&total.received, c.received)
				atomic.AddInt64(&total.lost, c.lost)
			}(i)
		}
		running.Wait()
		fmt.Printf("phase=%s allocations=%d window=%d size=%d sent=%d received=%d lost=%d\n",
			phase, *allocations, *window, *size, total.sent, total.received, total.lost)
	}
	if failed != 0 {
		os.Exit(2)
	}
}

// echo sends every datagram back where it came from.
func echo(conn net.PacketConn) {
	buf := make([]byte, 65536)
	for {
		n, from, err := conn.ReadFrom(buf)
		if err != nil {
			return
		}
		conn.WriteTo(buf[:n], from)
	}
}

// listen opens a loopback UDP socket with 4 MiB buffers, so that the test's own sockets never
// drop a burst: any loss is the relay's.
func listen() (*net.UDPConn, error) {
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, err
	}
	if err := conn.SetReadBuffer(4 << 20); err != nil {
		return nil, err
	}
	if err := conn.SetWriteBuffer(4 << 20); err != nil {
		return nil, err
	}
	return conn, nil
}

func allocate(server, user, pass, realm string) (*turn.Client, net.PacketConn, error) {
	conn, err := listen()
	if err != nil {
		return nil, nil, err
	}
	client, err := turn.NewClient(&turn.ClientConfig{
		STUNServerAddr: server,
		TURNServerAddr: server,
		Conn:           conn,
		Username:       user,
		Password:       pass,
		Realm:          realm,
		LoggerFactory:  logging.NewDefaultLoggerFactory(),
	})
	if err != nil {
		return nil, nil, err
	}
	if err := client.Listen(); err != nil {
		return nil, nil, err
	}
	relay, err := client.Allocate()
	if err != nil {
		return nil, nil, err
	}
	return client, relay, nil
}

// exchange runs rounds of a full window of messages to the peer and counts the echoes. In the
// send phase each message is a Send indication built with pion/stun; in the channel phase pion's
// relayed connection sends it, over the channel it binds on first use.
func exchange(phase string, client *turn.Client, relay net.PacketConn, peer *net.UDPAddr,
	window, size, rounds int, wait time.Duration) (counts, error) {
	var c counts
	server := client.TURNServerAddr()
	if phase == "send" {
		if err := client.CreatePermission(peer); err != nil {
			return c, fmt.Errorf("CreatePermission: %w", err)
		}
	} else {
		// The first write starts the ChannelBind; give it time to complete before measuring.
		if _, err := relay.WriteTo(make([]byte, size), peer); err != nil {
			return c, err
		}
		time.Sleep(300 * time.Millisecond)
		drain(relay)
	}
	payload := make([]byte, size)
	reply := make([]byte, 65536)
	seq := uint64(0)
	for r := 0; r < rounds; r++ {
		first := seq
		for k := 0; k < window; k++ {
			binary.BigEndian.PutUint64(payload, seq)
			seq++
			var err error
			if phase == "send" {
				err = sendIndication(client, server, peer, payload)
			} else {
				_, err = relay.WriteTo(payload, peer)
			}
			if err != nil {
				return c, err
			}
			c.sent++
		}
		got := make(map[uint64]bool)
		deadline := time.Now().Add(wait)
		for len(got) < window {
			relay.SetReadDeadline(deadline)
			n, _, err := relay.ReadFrom(reply)
			if err != nil {
				break
			}
			if n != size {
				continue
			}
			s := binary.BigEndian.Uint64(reply)
			if s >= first && s < seq {
				got[s] = true
			}
		}
		c.received += int64(len(got))
		c.lost += int64(window - len(got))
	}
	return c, nil
}

func sendIndication(client *turn.Client, server net.Addr, peer *net.UDPAddr, data []byte) error {
	msg, err := stun.Build(
		stun.TransactionID,
		stun.NewType(stun.MethodSend, stun.ClassIndication),
		rawAttribute{stun.AttrData, data},
		peerAddress{peer},
		stun.Fingerprint,
	)
	if err != nil {
		return err
	}
	_, err = client.WriteTo(msg.Raw, server)
	return err
}

// drain reads whatever is left from an earlier exchange.
func drain(relay net.PacketConn) {
	buf := make([]byte, 65536)
	for {
		relay.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		if _, _, err := relay.ReadFrom(buf); err != nil {
			return
		}
	}
}

type rawAttribute struct {
	t stun.AttrType
	v []byte
}

func (a rawAttribute) AddTo(m *stun.Message) error {
	m.Add(a.t, a.v)
	return nil
}

// peerAddress is XOR-PEER-ADDRESS (RFC 8656 §18.3): XOR-MAPPED-ADDRESS's format under another type.
type peerAddress struct {
	addr *net.UDPAddr
}

func (a peerAddress) AddTo(m *stun.Message) error {
	return stun.XORMappedAddress{IP: a.addr.IP, Port: a.addr.Port}.AddToAs(m, stun.AttrXORPeerAddress)
}
