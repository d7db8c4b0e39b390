package fix

import (
	. "context"
	"time"
)

func dotted(ctx Context) error {
	c, cancel := WithTimeout(Background(), time.Second) // want `inherited from ctx$`
	defer cancel()
	return use(c)
}
