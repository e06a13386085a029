//! The remote protocol's REPL round trip: `lua.eval {code: "1"}` from a client over loopback
//! to the runtime thread and back (target: at most 1 ms).

use criterion::{Criterion, criterion_group, criterion_main};
use nefia_runtime::host::remote::Listener;
use nefia_tests::remote::Client;
use serde_json::json;

fn round_trip(c: &mut Criterion) {
    let host = nefia_tests::host::demo();
    let listener = Listener::bind("0").expect("a free port");
    let (address, token) = (listener.address(), listener.token().to_owned());
    let _server = listener.serve(host.connector());
    let mut client = Client::attach(address, &token);
    c.bench_function("remote lua.eval round trip", |b| {
        b.iter(|| {
            let result = client.result("lua.eval", json!({ "code": "1" }));
            assert_eq!(result["values"][0], "1");
        })
    });
}

criterion_group!(benches, round_trip);
criterion_main!(benches);
