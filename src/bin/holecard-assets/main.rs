//! `holecard-assets`: draws every picture and synthesizes every sound the game ships, into `assets/`.
//!
//! The art is vector designs (`art.rs`) rendered by resvg; the sounds are synthesized with fundsp (`sound.rs`).
//! Everything is deterministic, so `--check` can prove the committed files are what the sources make.

mod art;
mod sound;

use clap::Parser;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Makes the game's art and sound from source.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// The assets folder to write into.
    #[arg(long, default_value = "assets")]
    out: PathBuf,
    /// Write nothing; fail if any file differs from what the sources make.
    #[arg(long)]
    check: bool,
}

/// A file the tool makes: its path under the assets folder and its bytes.
struct Made {
    path: PathBuf,
    bytes: Vec<u8>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("holecard-assets: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: &Cli) -> Result<(), String> {
    let fonts = cli.out.join("fonts");
    let mut made = Vec::new();
    for picture in art::pictures() {
        made.push(Made {
            path: PathBuf::from(picture.path),
            bytes: render(&picture, &fonts)?,
        });
    }
    for sound in sound::sounds() {
        let stats = sound::stats(&sound);
        println!(
            "{:<12} {:>6.2} s  peak {:>5.3}  lead-in {:>4.1} ms{}",
            sound.name,
            stats.seconds,
            stats.peak,
            stats.leading_silence_ms,
            stats
                .seam
                .map_or(String::new(), |s| format!("  seam {s:.3}"))
        );
        made.push(Made {
            path: Path::new("sounds").join(format!("{}.wav", sound.name)),
            bytes: sound::wav_bytes(&sound)?,
        });
    }
    let mut stale = Vec::new();
    for file in &made {
        let path = cli.out.join(&file.path);
        if cli.check {
            match std::fs::read(&path) {
                Ok(bytes) if bytes == file.bytes => {}
                Ok(_) => stale.push(format!("{} differs", path.display())),
                Err(e) => stale.push(format!("{}: {e}", path.display())),
            }
        } else {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            }
            std::fs::write(&path, &file.bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            println!("wrote {} ({} bytes)", path.display(), file.bytes.len());
        }
    }
    if stale.is_empty() {
        if cli.check {
            println!("{} files match their sources", made.len());
        }
        Ok(())
    } else {
        Err(format!(
            "{} of {} files are not what the sources make (run holecard-assets to regenerate):\n  {}",
            stale.len(),
            made.len(),
            stale.join("\n  ")
        ))
    }
}

/// Renders a design to PNG bytes with the game's own fonts (no system fonts: the result must not depend on the
/// machine).
fn render(picture: &art::Picture, fonts: &Path) -> Result<Vec<u8>, String> {
    let mut options = resvg::usvg::Options::default();
    for face in ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"] {
        let path = fonts.join(face);
        let data = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        options.fontdb_mut().load_font_data(data);
    }
    let tree = resvg::usvg::Tree::from_str(&picture.svg, &options)
        .map_err(|e| format!("{}: the design does not parse: {e}", picture.path))?;
    let (width, height) = picture.size;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(width, height)
        .ok_or_else(|| format!("{}: cannot make a {width}×{height} image", picture.path))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| format!("{}: {e}", picture.path))
}
