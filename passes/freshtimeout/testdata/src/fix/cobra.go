package fix

import (
	"context"
	"time"

	"github.com/spf13/cobra"
)

func runSync(cmd *cobra.Command, args []string) error {
	c, cancel := context.WithTimeout(context.TODO(), time.Minute) // want `inherited from cmd.Context\(\)$`
	defer cancel()
	return use(c)
}
