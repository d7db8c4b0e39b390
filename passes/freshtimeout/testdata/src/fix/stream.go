package fix

import (
	"context"
	"time"

	"google.golang.org/grpc"
)

func watch(req string, stream grpc.ServerStream) error {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from stream.Context\(\)$`
	defer cancel()
	return use(c)
}
