package secret

import "testing"

// TestEveryCredentialRuleCompiles: the credential rules compile at their
// first use (lazyRegexp); each compiles.
func TestEveryCredentialRuleCompiles(t *testing.T) {
	for _, r := range credentialPatterns {
		if r.re == nil || r.re() == nil {
			t.Errorf("rule %q has no regexp", r.name)
		}
	}
}
