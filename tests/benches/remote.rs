//! The remote protocol's REPL round trip over loopback (target: at most 1 ms): `lua.eval
//! {code: "1"}` from a JSON-RPC client, and the same evaluation from an editor attached with
//! `HostHandle::attach` (its command out as `host.command`, its answer back as `host.event`).

use criterion::{Criterion, criterion_group, criterion_main};
use nefia_host::HostHandle;
use nefia_host::remote::Listener;
use nefia_protocol::debugging::ReplCommand;
use nefia_protocol::message::Command;
use nefia_protocol::repl::Evaluation;
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

fn attached_round_trip(c: &mut Criterion) {
    let game = nefia_tests::remote::served();
    let repaint = std::sync::Arc::new(|| {});
    let editor = HostHandle::attach(&game.address.to_string(), &game.token, repaint).expect("attached");
    let mut id = 0;
    c.bench_function("attached editor REPL round trip", |b| {
        b.iter(|| {
            id += 1;
            editor.send(Command::Repl(ReplCommand::Eval { id, code: "1".into() }));
            let answer = nefia_tests::host::answer(&editor, id, &mut Vec::new());
            assert!(matches!(answer, Evaluation::Values(ref v) if v[0] == "1"), "{answer:?}");
        })
    });
}

criterion_group!(benches, round_trip, attached_round_trip);
criterion_main!(benches);
