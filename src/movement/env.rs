//! What the movement step reads of the world: the collision meshes and the climbable areas.
use crate::collision::{Aabb, ColliderId, CollisionMesh, CollisionWorld, Movers};

/// Collider id of the standing mesh in the world built by the simulation.
pub const STAND: ColliderId = ColliderId(0);
/// Collider id of the crouching mesh.
pub const CROUCH: ColliderId = ColliderId(1);

/// The colliders one kind of character moves with: a standing one and, for a character that can
/// crouch, a crouching one with the same feet point. Each collider has its own mesh in the
/// collision world (seed 004: "if an enemy has a different sized collider, then it should use a
/// different mesh"); characters of one class share them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SizeClass {
    /// The collider used standing.
    pub stand: ColliderId,
    /// The collider used crouching, if the character can crouch.
    pub crouch: Option<ColliderId>,
}

/// The hero's size class: [`STAND`] and [`CROUCH`].
pub const HERO_CLASS: SizeClass = SizeClass {
    stand: STAND,
    crouch: Some(CROUCH),
};

/// The surroundings of a movement step: the static meshes, the ladders, and the movers posed for
/// this tick (frozen while characters step).
#[derive(Clone, Copy)]
pub struct Env<'a> {
    /// Meshes: [`STAND`] and [`CROUCH`] at least.
    pub collision: &'a CollisionWorld,
    /// Climbable rectangles (ladders); the hero's feet must be inside to grab one.
    pub ladders: &'a [Aabb],
    /// Moving platforms, inflated by every collider of `collision` ([`Env::NO_MOVERS`]: none).
    pub movers: &'a Movers,
}

/// No movers, for worlds without them.
static NO_MOVERS: Movers = Movers::EMPTY;

impl<'a> Env<'a> {
    /// No movers ([`Env::movers`] of a world without any).
    pub const NO_MOVERS: &'static Movers = &NO_MOVERS;

    /// Static surroundings: `collision` and `ladders`, no movers.
    pub fn new(collision: &'a CollisionWorld, ladders: &'a [Aabb]) -> Env<'a> {
        Env {
            collision,
            ladders,
            movers: Env::NO_MOVERS,
        }
    }

    /// The mesh of a collider.
    pub fn mesh(&self, id: ColliderId) -> &'a CollisionMesh {
        self.collision.mesh(id)
    }
}
