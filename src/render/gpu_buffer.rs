//! A vertex or index buffer rewritten every frame, grown (doubling) when the data outgrows it.
use bytemuck::Pod;

/// A growable GPU vertex (or index) buffer.
pub struct DynamicBuffer {
    label: &'static str,
    usage: wgpu::BufferUsages,
    buffer: wgpu::Buffer,
    capacity: u64,
    len: u32,
}

impl DynamicBuffer {
    /// An empty vertex buffer with room for `capacity` bytes.
    pub fn new(device: &wgpu::Device, label: &'static str, capacity: u64) -> Self {
        DynamicBuffer::with_usage(device, label, capacity, wgpu::BufferUsages::VERTEX)
    }

    /// An empty index buffer with room for `capacity` bytes.
    pub fn index(device: &wgpu::Device, label: &'static str, capacity: u64) -> Self {
        DynamicBuffer::with_usage(device, label, capacity, wgpu::BufferUsages::INDEX)
    }

    fn with_usage(
        device: &wgpu::Device,
        label: &'static str,
        capacity: u64,
        usage: wgpu::BufferUsages,
    ) -> Self {
        let capacity = capacity.max(256);
        DynamicBuffer {
            label,
            usage,
            buffer: create(device, label, capacity, usage),
            capacity,
            len: 0,
        }
    }

    /// Replaces the contents with `data` (reallocating if it does not fit).
    pub fn write<T: Pod>(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, data: &[T]) {
        let bytes: &[u8] = bytemuck::cast_slice(data);
        if bytes.len() as u64 > self.capacity {
            self.capacity = (bytes.len() as u64).next_power_of_two();
            self.buffer = create(device, self.label, self.capacity, self.usage);
        }
        if !bytes.is_empty() {
            queue.write_buffer(&self.buffer, 0, bytes);
        }
        self.len = data.len() as u32;
    }

    /// Brings the contents up to `data`, of which only the element ranges `changed` differ from
    /// what was last written (when `data` fits the buffer; otherwise all of it is written, into
    /// a larger one). `whole` writes all of it.
    pub fn update<T: Pod>(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        data: &[T],
        changed: &[std::ops::Range<usize>],
        whole: bool,
    ) {
        let size = std::mem::size_of_val(data) as u64;
        if whole || size > self.capacity {
            self.write(device, queue, data);
            return;
        }
        let elem = std::mem::size_of::<T>();
        for r in changed.iter().filter(|r| !r.is_empty()) {
            queue.write_buffer(
                &self.buffer,
                (r.start * elem) as u64,
                bytemuck::cast_slice(&data[r.clone()]),
            );
        }
        self.len = data.len() as u32;
    }

    /// The buffer.
    pub fn buffer(&self) -> &wgpu::Buffer {
        &self.buffer
    }

    /// Number of elements last written.
    pub fn len(&self) -> u32 {
        self.len
    }

    /// Whether the last write was empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

fn create(
    device: &wgpu::Device,
    label: &str,
    size: u64,
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: size.next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT),
        usage: usage | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}
