// The gate ran on the module path: one test, passed, in the named module com.example.gates, with Goodput's jars as
// the named modules their Automatic-Module-Name gives; and it wrote its reports.
def log = new File(basedir, 'build.log').text
assert log.contains('Tests run: 1, Failures: 0, Errors: 0, Skipped: 0') : 'expected exactly one test, passed'
assert log.contains('goodput: measured') : 'expected the gate\'s summary in the test output'
assert log.contains('modules: test=com.example.gates junit=dev.goodput.junit core=dev.goodput.core mock=dev.goodput.mock') :
    'expected the test and Goodput in named modules'

def reports = new File(basedir, 'target/goodput/ModulePathGateTest/chat_answers_start_within_a_second_on_the_module_path')
['result.json', 'requests.csv', 'summary.txt'].each { name ->
    def file = new File(reports, name)
    assert file.isFile() && file.length() > 0 : "the gate wrote no ${name} in ${reports}"
}
assert new File(reports, 'summary.txt').text.contains('requests: 44 scheduled')
return true
