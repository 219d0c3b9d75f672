// The new user's build ran the gate: one test, passed, and the gate wrote its reports.
def log = new File(basedir, 'build.log').text
assert log.contains('Tests run: 1, Failures: 0, Errors: 0, Skipped: 0') : 'expected exactly one test, passed'
assert log.contains('goodput: measured') : 'expected the gate\'s summary in the test output'

def results = new File(basedir, 'target/surefire-reports/TEST-com.example.ChatGateTest.xml')
assert results.isFile() : "no Surefire result at ${results}"
assert results.text =~ /tests="1"/ : 'Surefire ran another number of tests than 1'

def reports = new File(basedir, 'target/goodput/ChatGateTest/chat_answers_start_within_a_second')
['result.json', 'requests.csv', 'summary.txt'].each { name ->
    def file = new File(reports, name)
    assert file.isFile() && file.length() > 0 : "the gate wrote no ${name} in ${reports}"
}
assert new File(reports, 'summary.txt').text.contains('requests: 44 scheduled')
return true
