use broadside::*;
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dims: Dims = args[1].parse().unwrap();
    let fleet = Fleet::parse(&args[2], &[]).unwrap();
    let rules: Rules = args[3].parse().unwrap();
    let p = ProblemSpec::empty(dims, fleet, rules).build().unwrap();
    let t = Instant::now();
    let par = args.get(4).is_some_and(|a| a == "par");
    let cells = args.get(5).is_some_and(|a| a == "cells");
    let r = Enumerator::new(&p)
        .count(&CountOptions {
            parallel: par,
            per_cell: cells,
            ..Default::default()
        })
        .unwrap();
    println!(
        "enum {} {:?} in {:?}",
        r.count,
        r.per_cell.map(|v| v[0]),
        t.elapsed()
    );
    if args.get(6).is_some_and(|a| a == "sat") {
        let t = Instant::now();
        let r = SatEngine::new(&p)
            .count(&CountOptions {
                per_cell: true,
                ..Default::default()
            })
            .unwrap();
        println!(
            "sat {} {:?} in {:?}",
            r.count,
            r.per_cell.map(|v| v[0]),
            t.elapsed()
        );
    }
}
