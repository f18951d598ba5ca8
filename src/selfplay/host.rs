//! [`host_description`]: the machine a timed game ran on, as the arena's journal records it
//! beside each pair.
//!
//! Why: an equal-time result is a property of the machine as much as of the bots: a faster
//! CPU searches both sides deeper in the same 200 ms, and a net and a hand-written leaf need
//! not gain alike. Generation 3's gate scored 51.8 % over 1,436 pairs and then 48.8 % over
//! the next 510 on an AMD EPYC, about 1.3 times the earlier Xeon's leaves/s for both
//! evaluators (README, the generation table), and which CPU played the first pairs was not
//! recorded. A journal that a match resumes on several machines now says which pairs each
//! one played.

/// The CPU's model name and the threads this process may use, e.g. `"AMD EPYC, 2
/// threads"`; the target architecture in place of the model where the OS does not name it
/// (anything but Linux's `/proc/cpuinfo`).
pub fn host_description() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| cpu_model(&text))
        .unwrap_or_else(|| std::env::consts::ARCH.to_owned());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!(
        "{model}, {threads} thread{}",
        if threads == 1 { "" } else { "s" }
    )
}

/// The first `model name` of a `/proc/cpuinfo` text, its spaces collapsed.
fn cpu_model(cpuinfo: &str) -> Option<String> {
    cpuinfo
        .lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            (name.trim() == "model name")
                .then(|| value.split_whitespace().collect::<Vec<_>>().join(" "))
        })
        .filter(|m| !m.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_is_the_first_model_name_line() {
        let text = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD  EPYC 9654 96-Core Processor\n\nprocessor\t: 1\nmodel name\t: other\n";
        assert_eq!(
            cpu_model(text).as_deref(),
            Some("AMD EPYC 9654 96-Core Processor")
        );
        assert_eq!(cpu_model("processor\t: 0\n"), None);
        assert_eq!(cpu_model("model name\t:   \n"), None);
    }
}
